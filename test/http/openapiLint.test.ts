import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/http/openapi';
import { run } from '../support/runCli';

const ROOT = new URL('../..', import.meta.url).pathname;
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
/** The CLI's documented switches: no usage data sent, no update check. */
const OFFLINE = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint --extends=recommended` on the document, from a directory with no redocly.yaml to change the rules. */
async function lint(document: unknown): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-openapi-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document, null, 1));
  const result = await run(process.execPath, [REDOCLY, 'lint', 'openapi.json', '--extends=recommended', '--format=json'], OFFLINE, dir);
  expect(result.stdout, result.stderr).toContain('"totals"');
  return JSON.parse(result.stdout) as LintReport;
}

const summary = (report: LintReport) => report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);

describe('GET /openapi.json under Redocly lint, recommended rules', () => {
  it('has no error and no warning', async () => {
    const report = await lint(openApiDocument());
    expect(summary(report)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('would be told about an operation without operationId or security, and an example that does not fit its schema', async () => {
    // A copy: the document shares its example objects with every other one openApiDocument() builds.
    const document = structuredClone(openApiDocument()) as any;
    delete document.paths['/health'].get.operationId;
    delete document.paths['/keys'].get.security;
    document.paths['/games/{id}/commands'].post.requestBody.content['application/json'].examples.roll.value.payload = { dice: '3d6+1' };
    const rules = new Set((await lint(document)).problems.map((p) => p.ruleId));
    expect(rules).toEqual(new Set(['operation-operationId', 'security-defined', 'no-invalid-media-type-examples']));
  });
});
