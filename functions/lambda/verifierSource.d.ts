/** The standalone verifier's text, written by infra/verifierFiles.ts before bundling (an esbuild alias, infra/bundling.ts). */
declare module 'arbiter-verifier-source' {
  const source: string;
  export default source;
}
