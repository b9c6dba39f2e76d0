import { describe, expect, it } from 'vitest';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { fire } from './samples';

// Every command's and procedure's free-text fields: test/domain/rulesets/playerStrings.test.ts, with samples.ts.
describe('text players choose, in the europa schemas', () => {
  it('the other sites of FortificationEvent are ids too, and a date is a Europa turn', () => {
    const schema = europaRuleset.commands.FortificationEvent.schema;
    for (const action of ['gain', 'loss']) expect(schema.safeParse({ action, site: 'a\nb', side: 'axis' }).success).toBe(false);
    for (const action of ['destroy', 'begin-improvement']) expect(schema.safeParse({ action, site: '\u202eb' }).success).toBe(false);
    expect(europaRuleset.commands.AAFire.schema.safeParse({ ...fire, date: 'June 1944' }).error?.issues[0]).toMatchObject({ path: ['date'], message: expect.stringMatching(/Jun II 44/) });
  });
});
