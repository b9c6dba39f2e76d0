/** The links an e-mail subscription's mails carry (confirm, unsubscribe), from the server's public origin, its id and its code. */
export function subscriptionLinks(publicUrl: () => string) {
  return (subscriptionId: string, code: string) => {
    const base = `${publicUrl().replace(/\/+$/, '')}/subscriptions/${encodeURIComponent(subscriptionId)}`;
    return { confirmUrl: `${base}/confirm?code=${encodeURIComponent(code)}`, unsubscribeUrl: `${base}/unsubscribe?code=${encodeURIComponent(code)}` };
  };
}
