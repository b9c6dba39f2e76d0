import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAMBDA_ENTRIES } from '../../infra/bundling';
import { PUSH_ENTRIES } from '../../infra/push';
import { EXPIRY_ENTRIES } from '../../infra/gameExpiry';
import { BEACON_ENTRIES } from '../../infra/beaconReveals';
import { NOTIFY_ENTRIES } from '../../infra/notifications';
import { EXPORT_JOB_ENTRIES } from '../../infra/exportJob';
import { run } from '../support/runCli';

type Resource = { Type: string; Properties: Record<string, any> };

describe('npm run synth', () => {
  it('writes the template with the pinned CDK CLI, with no AWS credentials: every function bundled, kms:Sign granted to the commands side alone (commands, the reveal function of beacon games, the export function of tournament exports) and the rotation role, no key policy giving kms:* to the account', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'arbiter-synth-')), 'cdk.out');
    const result = await run('npm', ['run', 'synth', '--', '--output', out], {
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_PROFILE: 'arbiter-none',
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    }, undefined, 280_000);
    expect(result.code, result.stderr).toBe(0);
    const template = JSON.parse(readFileSync(join(out, 'Arbiter.template.json'), 'utf8')) as { Resources: Record<string, Resource>; Outputs: Record<string, unknown> };
    const resources = Object.entries(template.Resources);
    const functions = resources.filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    // The six functions behind the HTTP API, the two push functions, the sweep, the reveal function, the notification delivery function and the export function.
    expect(functions).toHaveLength(Object.keys(LAMBDA_ENTRIES).length + Object.keys(PUSH_ENTRIES).length + Object.keys(EXPIRY_ENTRIES).length + Object.keys(BEACON_ENTRIES).length + Object.keys(NOTIFY_ENTRIES).length + Object.keys(EXPORT_JOB_ENTRIES).length);
    const assets = JSON.parse(readFileSync(join(out, 'Arbiter.assets.json'), 'utf8'));
    const bundled = (Object.values(assets.files) as { source: { path: string } }[]).filter((asset) => asset.source.path.startsWith('asset.'));
    expect(bundled).toHaveLength(functions.length);
    for (const asset of bundled) expect(existsSync(join(out, asset.source.path, 'index.mjs'))).toBe(true);
    // Each asset is the split build (infra/splitBundle.ts after NodejsFunction's one file): every chunk its files import is in it.
    let chunked = 0;
    for (const asset of bundled) {
      const dir = join(out, asset.source.path);
      const files = ['index.mjs', ...(existsSync(join(dir, 'chunks')) ? readdirSync(join(dir, 'chunks')).map((file) => `chunks/${file}`) : [])].filter((file) => file.endsWith('.mjs'));
      for (const file of files) {
        const imported = [...readFileSync(join(dir, file), 'utf8').matchAll(/(?:from|import\()\s*"(\.\.?\/[^"]+\.mjs)"/g)].map((m) => join(dir, file, '..', m[1]));
        for (const chunk of imported) expect(existsSync(chunk), `${asset.source.path}/${file} imports ${chunk}`).toBe(true);
        if (file === 'index.mjs' && imported.length) chunked += 1;
      }
    }
    // All but the docs function (one file: the page's assets and its handler) start from chunks.
    expect(chunked).toBe(functions.length - 1);

    // What `cdk deploy` sends (cdk.json's context applied), not only what the tests' App builds: only the commands side's roles may sign.
    const signers = resources.filter(([, r]) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes('"kms:Sign"'));
    const roleOf = (prefix: string) => functions.find(([id]) => id.startsWith(prefix))![1].Properties.Role['Fn::GetAtt'][0];
    // ... and the role npm run rotate-key:aws runs as, which signs the rotation statement (infra/signing.ts).
    const rotationRole = resources.find(([id, r]) => r.Type === 'AWS::IAM::Role' && id.startsWith('KeyRotationRole'))![0];
    expect(signers.map(([, r]) => r.Properties.Roles)).toEqual([[{ Ref: roleOf('CommandsFunction') }], [{ Ref: roleOf('BeaconRevealsRevealFunction') }], [{ Ref: rotationRole }], [{ Ref: roleOf('ExportJobFunction') }]]);
    // Whatever feature flags cdk.json sets, the keys' policies are the stack's own: no kms:* for the account (policySimulation.test.ts).
    const arbiterKeys = resources.filter(([id, r]) => r.Type === 'AWS::KMS::Key' && /^(SigningKey\d+|SeedKey|TokenKey)/.test(id));
    expect(arbiterKeys).toHaveLength(3);
    for (const [id, key] of arbiterKeys) expect(JSON.stringify(key.Properties.KeyPolicy), id).not.toContain('"kms:*"');
    expect(resources.filter(([, r]) => r.Type.startsWith('AWS::SecretsManager::'))).toEqual([]);
    expect(Object.keys(template.Outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'SigningKeyArns', 'PushUrl', 'AlarmNotifications', 'NotificationQueueUrl', 'NotificationDeadLettersUrl']));
    // Eleven functions, each built by a Node process of its own after NodejsFunction (infra/splitBundle.ts): minutes on a loaded machine.
  }, 300_000);
});
