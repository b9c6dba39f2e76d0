import { describe, expect, it } from 'vitest';
import { confirmPage, donePage, EMAIL_PAGE_CONTENT_SECURITY_POLICY, unsubscribePage } from '../../../functions/notify/email/pages';

const hostile = { gameTitle: '<img src=x onerror=alert(1)> "Kursk" & \'co\'', gameId: 'g-abc123' };

describe('the pages of an e-mail\'s links', () => {
  it('show a button that posts to the page\'s own address, and act on nothing themselves', () => {
    for (const result of [confirmPage(hostile), unsubscribePage(hostile)]) {
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(result.body).toMatch(/<form method="post">/);
      expect(result.body).not.toMatch(/action=/);
      expect(result.body).not.toMatch(/<script/i);
    }
  });

  it('post what a mail client\'s one-click unsubscribe posts', () => {
    expect(unsubscribePage(hostile).body).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click">');
    expect(confirmPage(hostile).body).not.toContain('List-Unsubscribe');
  });

  it('show a game\'s title as text, never as markup', () => {
    for (const result of [confirmPage(hostile), unsubscribePage(hostile), donePage('confirmed', hostile), donePage('unsubscribed', hostile)]) {
      expect(result.body).not.toContain('<img');
      expect(result.body).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Kursk&quot; &amp; &#39;co&#39;');
    }
  });

  it('are served with a policy that allows no script, no other origin and no framing, and the form to this origin only', () => {
    const result = confirmPage(hostile);
    expect(result.headers['content-security-policy']).toBe(EMAIL_PAGE_CONTENT_SECURITY_POLICY);
    expect(EMAIL_PAGE_CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/);
    expect(result.headers['referrer-policy']).toBe('no-referrer');
    expect(result.headers['x-frame-options']).toBe('DENY');
  });

  it('answer an unknown or spent link with 404, naming no game', () => {
    const result = donePage('unknown-link');
    expect(result.statusCode).toBe(404);
    expect(result.body).toContain('This link is not valid');
    expect(result.body).toContain('Nothing was changed.');
  });
});
