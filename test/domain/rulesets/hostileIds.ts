/** Property names every JavaScript object has: as ids, a ruleset must treat them as any other id. */
export const HOSTILE_IDS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'] as const;
