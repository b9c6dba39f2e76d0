#!/usr/bin/env node
/*
 * An independent implementation of fairness-v1 (docs/fairness.md), written from
 * the specification alone: it imports nothing from this project. It checks an
 * export bundle's chain (seq, prevHash, hash, Ed25519 signature), the seed
 * commitment, the game key and every die. It does not replay the rules.
 *
 *   node test/independent/fairness-v1-verifier.mjs export.json
 * prints one JSON line { ok, commits, dice, problems } and exits 0 or 1.
 */
import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

function jcs(value) {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!isFinite(value)) throw new Error('number');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map(jcs).join(',') + ']';
  const keys = Object.keys(value).sort(); // default sort compares UTF-16 code units
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + jcs(value[k])).join(',') + '}';
}
const sha256hex = (text) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

function draw(gameKey, seq, sidesList) {
  const values = [];
  let c = 0;
  let words = [];
  const next = () => {
    if (words.length === 0) {
      const block = createHmac('sha256', gameKey).update(Buffer.from(`${seq}:${c++}`, 'ascii')).digest();
      for (let i = 0; i < 32; i += 4) words.push(block.readUInt32BE(i));
    }
    return words.shift();
  };
  for (const S of sidesList) {
    const limit = 2 ** 32 - (2 ** 32 % S);
    let w = next();
    while (w >= limit) w = next();
    values.push((w % S) + 1);
  }
  return values;
}

export function verifyExport(bundle) {
  const problems = [];
  const keys = Object.fromEntries(bundle.keys.keys.map((k) => [k.kid, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.x }, format: 'jwk' })]));
  let prev = '0'.repeat(64);
  let sealedSeed = null;
  let dice = 0;
  bundle.commits.forEach((commit, i) => {
    const { hash, signature, ...rest } = commit;
    if (commit.seq !== i + 1) problems.push(`seq ${i + 1}: numbered ${commit.seq}`);
    if (commit.prevHash !== prev) problems.push(`seq ${i + 1}: prevHash`);
    if (sha256hex(jcs(rest)) !== hash) problems.push(`seq ${i + 1}: hash`);
    const key = keys[commit.kid];
    if (!key || !verify(null, Buffer.from(hash, 'hex'), key, Buffer.from(signature, 'base64'))) problems.push(`seq ${i + 1}: signature`);
    if (sealedSeed !== null) problems.push(`seq ${i + 1}: after GameSealed`);
    for (const e of commit.events) if (e.type === 'GameSealed') sealedSeed = e.data.serverSeed;
    prev = hash;
  });
  if (bundle.commits[0]?.events[0]?.data?.commitment !== bundle.commitment) problems.push('commitment differs from GameCreated');
  if (sealedSeed !== null) {
    const seed = Buffer.from(bundle.serverSeed, 'hex');
    if (bundle.serverSeed !== sealedSeed) problems.push('bundle seed differs from GameSealed');
    if (createHash('sha256').update(seed).digest('hex') !== bundle.commitment) problems.push('seed does not match commitment');
    const entropy = [];
    let gameKey = null;
    for (const commit of bundle.commits) {
      for (const e of commit.events) {
        if (e.type === 'EntropyContributed') {
          if (gameKey) problems.push(`seq ${commit.seq}: entropy after a die`);
          entropy.push([e.data.by, e.data.entropy]);
        }
      }
      if (commit.dice.length === 0) continue;
      gameKey ??= createHmac('sha256', seed).update(Buffer.from(jcs({ gameId: bundle.gameId, entropy }), 'utf8')).digest();
      const expected = draw(gameKey, commit.seq, commit.dice.map((d) => d.sides));
      commit.dice.forEach((d, j) => {
        dice++;
        if (d.value !== expected[j]) problems.push(`seq ${commit.seq}: die ${j + 1}`);
      });
    }
  }
  return { ok: problems.length === 0, commits: bundle.commits.length, dice, sealed: sealedSeed !== null, problems };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const report = verifyExport(JSON.parse(readFileSync(process.argv[2], 'utf8')));
  console.log(JSON.stringify(report));
  process.exit(report.ok ? 0 : 1);
}
