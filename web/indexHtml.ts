/** The one HTML page: no inline script or style, so the Content-Security-Policy can forbid them. */
export function indexHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Arbiter</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<header class="site"><nav aria-label="Arbiter"><a class="brand" href="#/organize">Arbiter</a> <a href="#/organize">New game</a> <a href="#/tournaments">Tournaments</a> <a href="#/verify">Verify an export</a> <a href="#/stats">Dice statistics</a></nav></header>
<main id="app" tabindex="-1"><p>Loading…</p></main>
<noscript><p>This page needs JavaScript. The API works without it: see /openapi.json.</p></noscript>
</body>
</html>
`;
}
