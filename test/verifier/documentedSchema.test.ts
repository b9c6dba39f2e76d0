import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { VerifierReportSchema } from '../../domain/verify/verifierReport';

describe('docs/verifier.md', () => {
  it('publishes the JSON Schema of the --json report that the code checks against', () => {
    const doc = readFileSync(new URL('../../docs/verifier.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    const published = blocks.map((block) => JSON.parse(block)).find((value) => value.$schema);
    expect(published).toEqual(z.toJSONSchema(VerifierReportSchema));
  });
});
