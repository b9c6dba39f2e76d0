/** The web app's files by path, written by infra/webFiles.ts before bundling (an esbuild alias, infra/bundling.ts). */
declare module 'arbiter-web-assets' {
  const files: Record<string, { body: string; contentType: string }>;
  export default files;
}
