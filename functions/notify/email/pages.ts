import { createHash } from 'node:crypto';
import { answer, type HttpResult } from '../../http/respond';
import { oneLine } from './mailText';

/**
 * The pages of an e-mail's links (GET /subscriptions/{id}/confirm and …/unsubscribe): the link
 * only shows a page; its button POSTs to the same address (query and code included), so a link
 * scanner that opens every link in a mail confirms and ends nothing. No script at all.
 */

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d2430}' +
  'button{font:inherit;padding:.5rem 1rem;border:2px solid #1d4ed8;border-radius:.375rem;background:#1d4ed8;color:#fff;cursor:pointer}' +
  'button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}.game{font-weight:600}';

/**
 * Nothing but this page's own style and a form posting to this origin: no script, no image,
 * no frame, no other connection.
 */
export const EMAIL_PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageGame {
  gameTitle: string;
  gameId: string;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function page(statusCode: number, title: string, body: string): HttpResult {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  return answer(statusCode, 'text/html; charset=utf-8', html, {
    'content-security-policy': EMAIL_PAGE_CONTENT_SECURITY_POLICY,
    // The address holds the subscription's code: sent to no other site.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  });
}

const gameHtml = (game: PageGame) => `<span class="game">${escapeHtml(oneLine(game.gameTitle, 80))}</span> (${escapeHtml(oneLine(game.gameId, 64))})`;
const gameText = (game: PageGame) => `${oneLine(game.gameTitle, 80)} (${oneLine(game.gameId, 64)})`;

// No action: the form posts to this page's own address, the code in its query included.
const form = (button: string, oneClick: boolean) =>
  `<form method="post">${oneClick ? '<input type="hidden" name="List-Unsubscribe" value="One-Click">' : ''}<button type="submit">${escapeHtml(button)}</button></form>`;

/** GET …/confirm?code=…: what confirming means, and the button that does it. */
export function confirmPage(game: PageGame): HttpResult {
  return page(
    200,
    `Confirm mails for ${gameText(game)}`,
    `<h1>Mails for every move?</h1>
<p>This address was subscribed to the moves of game ${gameHtml(game)} on Arbiter: a mail for each commit, or a digest, as chosen when subscribing.</p>
<p>No mail is sent until you confirm. Every mail has a link to stop them.</p>
${form('Confirm: send me these mails', false)}`,
  );
}

/**
 * GET …/unsubscribe?code=…: the button that ends the subscription. It posts what a mail
 * client's one-click unsubscribe posts (RFC 8058: List-Unsubscribe=One-Click), so both are one request.
 */
export function unsubscribePage(game: PageGame): HttpResult {
  return page(
    200,
    `Stop mails for ${gameText(game)}`,
    `<h1>Stop these mails?</h1>
<p>This address gets mails about the moves of game ${gameHtml(game)} on Arbiter.</p>
${form('Unsubscribe: send me no more mails', true)}`,
  );
}

export type DoneOutcome = 'confirmed' | 'unsubscribed' | 'unknown-link';

/** What the POST answers: done, or (404) a link that is not or no longer valid, which says nothing of any game. */
export function donePage(outcome: DoneOutcome, game?: PageGame): HttpResult {
  if (outcome === 'unknown-link' || !game) {
    return page(404, 'Link not valid', `<h1>This link is not valid</h1>
<p>It may have been mistyped, or the subscription has ended. Nothing was changed.</p>`);
  }
  if (outcome === 'confirmed') {
    return page(200, `Mails confirmed for ${gameText(game)}`, `<h1>Confirmed</h1>
<p>You will get mails about game ${gameHtml(game)}. Each one has a link to stop them.</p>`);
  }
  return page(200, `Unsubscribed from ${gameText(game)}`, `<h1>Unsubscribed</h1>
<p>You will get no more mails about game ${gameHtml(game)}.</p>`);
}
