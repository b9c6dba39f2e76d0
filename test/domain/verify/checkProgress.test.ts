import { describe, expect, it } from 'vitest';
import type { CheckStep } from '../../../domain/verify/checkProgress';
import { examineExport } from '../../../domain/verify/verifyExport';
import { copyOf, diceMoves, exportOf, honestExport, newKey, playGame } from './signedExports';

const a = newKey('key-a');

function recorded(bundle: unknown) {
  const calls: [CheckStep, number, number][] = [];
  const examination = examineExport(bundle, { trusted: [a.fingerprint] }, (step, done, total) => void calls.push([step, done, total]));
  return { examination, calls };
}

const each = (step: CheckStep, total: number) => Array.from({ length: total }, (_, i): [CheckStep, number, number] => [step, i + 1, total]);

describe('examineExport tells where it is (the verify page’s progress)', () => {
  it('after every commit of each pass, in order: the chain, the dice once sealed, the rules; the report is the same as without', () => {
    const bundle = honestExport(a, 4);
    const { examination, calls } = recorded(bundle);
    expect(examination.report.commits).toBe(8);
    expect(calls).toEqual([...each('chain', 8), ...each('dice', 8), ...each('rules', 8)]);
    expect(examination).toEqual(examineExport(bundle, { trusted: [a.fingerprint] }));
  });

  it('has no dice pass before the seal, a rules pass that ends where the replay stops, and nothing for what is not an export', () => {
    expect(recorded(exportOf(playGame({ moves: diceMoves(2, false), keyFor: () => a }), { keys: [a] })).calls).toEqual([...each('chain', 5), ...each('rules', 5)]);
    const broken = copyOf(honestExport(a, 4));
    (broken.commits[3].command.payload as { dice: string }).dice = '9d9';
    const { calls } = recorded(broken);
    expect(calls.filter(([step]) => step === 'rules')).toEqual(each('rules', 8).slice(0, 3));
    expect(recorded({ not: 'an export' }).calls).toEqual([]);
  });
});
