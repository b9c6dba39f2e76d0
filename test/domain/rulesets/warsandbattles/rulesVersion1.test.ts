import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Commit } from '../../../../domain/fairness/hashChain';
import type { ExportBundle } from '../../../../domain/verify/exportBundle';
import { verifyExport } from '../../../../domain/verify/verifyExport';

describe('Wars and Battles games recorded before rules version 2 (issue 31)', () => {
  // Played, sealed and exported by the code of 09779a0, before the rules version existed: a
  // defending Tiger with no shift, two bombarders in one roll, a heavy bomber shot down that
  // still bombards, in a storm.
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/game-before-issue-31.json', import.meta.url), 'utf8')) as { trusted: string; bundle: ExportBundle };
  const commits: Commit[] = fixture.bundle.commits;

  it('still verify, every commit replayed under the first rules, creation included', () => {
    const created = commits[0].events[0].data as { options: Record<string, unknown> };
    expect(created.options).not.toHaveProperty('rulesVersion');
    expect(created.options).not.toHaveProperty('availability');
    expect(commits.find((c) => c.command.type === 'Bombard')!.command.payload).toMatchObject({ bombarders: [{ unitId: 'us-art' }, { unitId: 'us-ship' }] });
    expect(verifyExport(fixture.bundle, { trusted: [fixture.trusted] })).toMatchObject({ ok: true, exitCode: 0, rulesReplayed: commits.length, failures: [] });
  });
});
