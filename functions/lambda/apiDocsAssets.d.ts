/** The API reference page's files by path, gzipped, written by infra/apiDocsFiles.ts before bundling (an esbuild alias, infra/bundling.ts). */
declare module 'arbiter-api-docs-assets' {
  const files: Record<string, { contentType: string; gzipBase64: string }>;
  export default files;
}
