/** Europa's two sides and the kinds of fortification site (30A4): named by the events and folded by the state. */
export const SIDES = ['axis', 'allied'] as const;
export type Side = (typeof SIDES)[number];
export const SITE_KINDS = ['fort', 'fortified-area', 'port-fortification', 'fortified-hexside', 'fortress', 'westwall', 'ouvrage'] as const;
export type SiteKind = (typeof SITE_KINDS)[number];
