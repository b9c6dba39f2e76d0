#!/usr/bin/env node
/*
 * Builds the VASSAL Player (VASSAL 3.7.26, pinned) from VASSAL's own sources with plain javac against
 * Debian's Java library packages, into node_modules/.cache/vassal-3.7.26/ (ignored, never committed):
 *   Vengine.jar      VASSAL's classes and resources (images, i18n bundles, help, logback.xml)
 *   classpath.txt    the Debian jars it runs against, one path a line
 *   build.json       the tag, the commit, the Debian packages and their versions, the build time
 * Idempotent: skipped when build.json names the same tag and commit.
 *
 * Sources: VASSAL's own source tree at the tag, kept in the repository as proof/vendor/vassal-3.7.26-src.tar.gz
 * (vassal-app/src/main, LICENSE and README.md of the tag, made by `git archive --format=tar.gz
 * --prefix=vassal-3.7.26/ 3.7.26 vassal-app/src/main LICENSE README.md`; VASSAL is LGPL 2.1, its licence is
 * inside), checked against VENDORED_SHA256 before use; or a git repository of VASSAL named by VASSAL_GIT.
 * Maven Central is not reachable here, so the dependencies are Debian's (older versions than VASSAL's pom
 * asks for, see docs/vassal.md "Proof inside VASSAL"). Two departures from VASSAL's Maven build, both forced
 * by Debian's logback 1.2 (VASSAL 3.7.26 wants logback 1.6):
 *   - VASSAL/tools/logging/PropertyNoCaseStartsWithCondition.java is not compiled: it extends a logback 1.5+
 *     class; it is only named by VASSAL's logback.xml, to pick the error log's folder by OS name.
 *   - logback.xml is replaced by proof/logback.xml: the same two appenders (error log file, chat), the log
 *     in VASSAL's conf folder (-DVASSAL.conf, or ~/.VASSAL), without the <if>/<condition> blocks.
 * The vassal-deprecation annotation processor (it only prints warnings about old deprecations) is not run.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { javaFiles } from '../javaFiles.mjs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VASSAL_TAG = '3.7.26';
const proof = dirname(fileURLToPath(import.meta.url));
const root = join(proof, '..', '..', '..');
export const vassalDir = join(root, 'node_modules', '.cache', `vassal-${VASSAL_TAG}`);
const gitDir = process.env.VASSAL_GIT;
/** The commit of tag 3.7.26 in VASSAL's repository, and the vendored archive of its sources. */
export const VASSAL_COMMIT = 'b16ccbfaa49763e9d3c523c52b253d7802d85e70';
const vendored = join(proof, 'vendor', `vassal-${VASSAL_TAG}-src.tar.gz`);
const VENDORED_SHA256 = 'e0612b8f85beec7347fd346b23dfd72d51863686ff9cb5cba2abc2af3fd93096';

/** Debian package → the jars of it on VASSAL's class path (VASSAL's pom artifact in the comment). */
export const DEBIAN = [
  ['liblogback-java', ['logback-classic.jar', 'logback-core.jar']], // ch.qos.logback:logback-classic
  ['libmiglayout-java', ['miglayout-core.jar', 'miglayout-swing.jar']], // com.miglayout:miglayout-swing
  ['libjlayer-java', ['jl.jar']], // javazoom:jlayer
  ['libcommons-codec-java', ['commons-codec.jar']],
  ['libcommons-io-java', ['commons-io.jar']],
  ['libgetopt-java', ['gnu-getopt.jar']], // gnu.getopt:java-getopt
  ['libcommons-lang3-java', ['commons-lang3.jar']],
  ['libhttpclient5-java', ['httpclient5.jar']], // org.apache.httpcomponents.client5:httpclient5
  ['libhttpcore5-java', ['httpcore5.jar', 'httpcore5-h2.jar']], // its dependency
  ['libbatik-java', ['batik-all.jar']], // org.apache.xmlgraphics:batik-codec, -dom, -extension, -swing
  ['libxml-commons-external-java', ['xml-apis-ext.jar']], // batik's SVG DOM interfaces (org.w3c.dom.svg)
  ['libjanino-java', ['janino.jar', 'commons-compiler.jar']], // org.codehaus.janino:janino
  ['libslf4j-java', ['slf4j-api.jar']],
  ['libswingx-java', ['swingx-core.jar']], // org.swinglabs.swingx:swingx-all
  ['libtimingframework-java', ['TimingFramework.jar']], // net.java.dev.timingframework:timingframework
  ['libmaven3-core-java', ['maven3-artifact.jar']], // org.apache.maven:maven-artifact
  ['libasm-java', ['asm.jar']], // org.ow2.asm:asm
  ['libjsoup-java', ['jsoup.jar']], // org.jsoup:jsoup
  ['libfindbugs-annotations-java', ['findbugs-annotations.jar']], // com.github.spotbugs:spotbugs-annotations (@SuppressFBWarnings)
];
const SKIPPED_SOURCES = ['VASSAL/tools/logging/PropertyNoCaseStartsWithCondition.java'];

function fail(message) {
  throw new Error(`vassal build: ${message}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) fail(`${cmd}: ${result.error.message}`);
  return result;
}


/** Installs the Debian packages that are missing (as .ci/run does); returns each package's version. */
export function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => run('dpkg', ['-s', p]).status !== 0);
  if (missing.length > 0) {
    console.log(`vassal build: apt-get install -y ${missing.join(' ')}`);
    const install = run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (install.status !== 0) {
      // A new machine's package lists may be empty or old: read them once, then try again.
      run('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      const again = run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      if (again.status !== 0) fail(`apt-get install failed for ${missing.join(' ')}`);
    }
  }
  return Object.fromEntries(packages.map((p) => [p, run('dpkg-query', ['-W', '-f=${Version}', p]).stdout.trim()]));
}

export function vassalClassPath() {
  return [join(vassalDir, 'Vengine.jar'), ...readFileSync(join(vassalDir, 'classpath.txt'), 'utf8').split('\n').filter(Boolean)];
}

export function buildVassal() {
  const started = Date.now();
  const commit = gitDir ? (existsSync(gitDir) ? run('git', ['-C', gitDir, 'rev-parse', `${VASSAL_TAG}^{commit}`]).stdout.trim() : null) : existsSync(vendored) ? VASSAL_COMMIT : null;
  const stampFile = join(vassalDir, 'build.json');
  if (existsSync(stampFile) && existsSync(join(vassalDir, 'Vengine.jar'))) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    // Without the sources at hand, a build of the same tag is taken as it is.
    if (stamp.tag === VASSAL_TAG && (commit === null || stamp.commit === commit)) {
      console.log(`vassal build: VASSAL ${VASSAL_TAG} (${stamp.commit.slice(0, 12)}) already built in ${vassalDir} (${stamp.seconds} s then)`);
      return stamp;
    }
  }
  if (commit === null) fail(gitDir ? `VASSAL's sources not found: no git repository at ${gitDir}` : `VASSAL's sources not found: ${vendored} is missing (or set VASSAL_GIT to a clone of VASSAL)`);
  if (!/^[0-9a-f]{40}$/.test(commit)) fail(`tag ${VASSAL_TAG} not found in ${gitDir}`);
  const hasJdk = spawnSync('javac', ['-version']).status === 0;
  const versions = ensureDebianPackages([...(hasJdk ? [] : ['default-jdk-headless']), ...DEBIAN.map(([p]) => p)]);
  const jars = DEBIAN.flatMap(([, names]) => names).map((name) => join('/usr/share/java', name));
  for (const jar of jars) if (!existsSync(jar)) fail(`${jar} is missing after installing the Debian packages`);

  rmSync(vassalDir, { recursive: true, force: true });
  const src = join(vassalDir, 'src');
  const classes = join(vassalDir, 'classes');
  mkdirSync(src, { recursive: true });
  mkdirSync(classes, { recursive: true });
  if (gitDir) {
    const archive = run('git', ['-C', gitDir, 'archive', '--format=tar', commit, 'vassal-app/src/main'], { encoding: 'buffer' });
    if (archive.status !== 0) fail(`git archive failed: ${archive.stderr}`);
    if (run('tar', ['-x', '-C', src], { input: archive.stdout }).status !== 0) fail('tar failed');
  } else {
    const bytes = readFileSync(vendored);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== VENDORED_SHA256) fail(`${vendored} is not the archive this build pins (sha256 ${sha256}, expected ${VENDORED_SHA256})`);
    if (run('tar', ['-xz', '-C', src, '--strip-components=1'], { input: bytes }).status !== 0) fail('tar failed');
  }

  const javaRoot = join(src, 'vassal-app/src/main/java');
  const sources = javaFiles(javaRoot).filter((f) => !SKIPPED_SOURCES.some((s) => f.endsWith(s)));
  const listFile = join(vassalDir, 'sources.txt');
  writeFileSync(listFile, sources.join('\n') + '\n');
  console.log(`vassal build: javac ${sources.length} files of VASSAL ${VASSAL_TAG} (${commit.slice(0, 12)}) against ${jars.length} Debian jars`);
  const javac = run('javac', ['--release', '17', '-nowarn', '-encoding', 'UTF-8', '-proc:none', '-J-Xmx1g', '-d', classes, '-cp', jars.join(':'), `@${listFile}`]);
  if (javac.status !== 0) fail(`javac failed:\n${javac.stdout}${javac.stderr}`);

  cpSync(join(src, 'vassal-app/src/main/resources'), classes, { recursive: true });
  cpSync(join(proof, 'logback.xml'), join(classes, 'logback.xml'));
  writeFileSync(join(classes, 'git.properties'), `git.version=${VASSAL_TAG}\n`);
  const jar = run('jar', ['--create', '--file', join(vassalDir, 'Vengine.jar'), '-C', classes, '.']);
  if (jar.status !== 0) fail(`jar failed: ${jar.stderr}`);
  rmSync(classes, { recursive: true, force: true });
  rmSync(src, { recursive: true, force: true });
  writeFileSync(join(vassalDir, 'classpath.txt'), jars.join('\n') + '\n');
  const stamp = {
    tag: VASSAL_TAG,
    commit,
    sources: sources.length,
    skipped: SKIPPED_SOURCES,
    debian: Object.fromEntries(DEBIAN.map(([p]) => [p, versions[p]])),
    javac: run('javac', ['-version']).stdout.trim(),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  writeFileSync(stampFile, JSON.stringify(stamp, null, 1) + '\n');
  console.log(`vassal build: VASSAL ${VASSAL_TAG} built in ${stamp.seconds} s -> ${join(vassalDir, 'Vengine.jar')}`);
  return stamp;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    buildVassal();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
