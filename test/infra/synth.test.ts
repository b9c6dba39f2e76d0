import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../support/runCli';

describe('npm run synth', () => {
  it('writes the template with the pinned CDK CLI, with no AWS credentials', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'arbiter-synth-')), 'cdk.out');
    const result = await run('npm', ['run', 'synth', '--', '--output', out], {
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: 'arbiter-none',
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    });
    expect(result.code, result.stderr).toBe(0);
    const template = JSON.parse(readFileSync(join(out, 'Arbiter.template.json'), 'utf8'));
    expect(Object.values(template.Resources).filter((r) => (r as { Type: string }).Type === 'AWS::Lambda::Function')).toHaveLength(6);
    const assets = JSON.parse(readFileSync(join(out, 'Arbiter.assets.json'), 'utf8'));
    for (const asset of Object.values(assets.files) as { source: { path: string } }[]) {
      if (asset.source.path.startsWith('asset.')) expect(existsSync(join(out, asset.source.path, 'index.mjs'))).toBe(true);
    }
  });
});
