// What the deployed stack costs a month on AWS, all in, for a stated use: every line is a
// quantity × a price, printed with its arithmetic (`npm run bench -- allin`, docs/deploy.md
// "What it costs"). Prices: us-east-1 as listed on 2026-11-23, before any free tier.

export const PRICES = {
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  dynamoStorageGbMonth: 0.25,
  dynamoPitrGbMonth: 0.2,
  backupStorageGbMonth: 0.1,
  lambdaRequest: 0.2 / 1e6,
  lambdaArmGbSecond: 0.0000133334,
  httpApiRequest: 1.0 / 1e6,
  webSocketMessage: 1.0 / 1e6,
  webSocketConnectionMinute: 0.25 / 1e6,
  kmsAsymmetricRequest: 0.15 / 1e4,
  kmsSymmetricRequest: 0.03 / 1e4,
  kmsKeyMonth: 1.0,
  logsIngestedGb: 0.5,
  logsStoredGbMonth: 0.03,
  customMetricMonth: 0.3,
  alarmMetricMonth: 0.1,
  dashboardMonth: 3.0,
  xrayTrace: 5.0 / 1e6,
  s3Put: 0.005 / 1e3,
  s3Get: 0.0004 / 1e3,
  s3StorageGbMonth: 0.023,
  wafWebAclMonth: 5.0,
  wafRuleMonth: 1.0,
  wafRequest: 0.6 / 1e6,
  cloudFrontHttpsRequest: 0.01 / 1e4,
} as const;

/** A month of use. */
export interface Scenario {
  name: string;
  games: number;
  commandsPerGame: number;
  /** Reads (timeline fetches, polls answered 304, key and page fetches) per command. */
  readsPerCommand: number;
  /** WebSocket subscribers of a game: each new commit is one message to each. */
  pushSubscribersPerGame: number;
  /** Minutes a month the game's subscribers are connected, all of them together. */
  connectionMinutesPerGame: number;
  /** Exports of a game a month (each: a HEAD, a PUT of the sealed export, a GET by its link). */
  exportsPerGame: number;
  /** Commands that are their container's first for their game: they read the game (a snapshot and what follows) and open its seed. */
  coldCommandShare: number;
  /** Hours in 100 in which some failure-only metric (a dependency error, a 5xx, a 429) receives data. */
  failureHoursShare: number;
}

/** The review's 200 play-by-e-mail games (issue 35 C1): about 300,000 commands a month. */
export const PBEM_200: Scenario = {
  name: '200 PBEM games a month',
  games: 200,
  commandsPerGame: 1_500,
  readsPerCommand: 3,
  pushSubscribersPerGame: 2,
  connectionMinutesPerGame: 2 * 60 * 30,
  exportsPerGame: 1,
  coldCommandShare: 0.1,
  failureHoursShare: 0.05,
};

/** What one request costs in resources, from docs/benchmarks.md and the README's cost note. */
export const FOOTPRINT = {
  command: { seconds: 0.06, memoryGb: 0.5, writeUnits: 2, kmsSigns: 2 },
  /** A cold command also reads the game: the snapshot, the head and the commits past it, N / 2 on average (N = 100; bench "Cost growth"). */
  coldCommandReadUnits: 52,
  read: { seconds: 0.02, memoryGb: 0.5, readUnits: 1 },
  /** The push stream function, once per new commit at this pace: the commit and the subscribers read; its platform lines and one log line. */
  pushBatch: { seconds: 0.05, memoryGb: 0.25, readUnits: 2, logKb: 0.7 },
  /** Lambda's own START, END and REPORT lines of an invocation. */
  platformLogKb: 0.38,
  /** A sealed export of a 1,500-commit game. */
  exportMb: 2.25,
  /** A game's items in the table (commits, heads, snapshots), per 1,000 commits. */
  tableMbPer1000Commits: 1.5,
} as const;

/** What the stack is made of, as the bill sees it: read from the synthesized template and from what the functions emit. */
export interface StackFacts {
  /** Custom metric series that receive data in every hour of use (name × dimension values of ordinary requests). */
  alwaysOnMetricSeries: number;
  /** Series that receive data only when something fails (dependency errors, 5xx, 429s, late reveals). */
  failureOnlyMetricSeries: number;
  tracing: 'Active' | 'PassThrough';
  alarms: number;
  /** Metrics the alarms read (CloudWatch bills each). */
  alarmMetrics: number;
  kmsKeys: number;
  dashboards: number;
  /** Backups kept at any time (AWS Backup), each a full copy of the retained tables. */
  backupsKept: number;
  /** What a function writes itself for one request (its log line and its EMF metrics), measured. */
  requestLogKb: { command: number; read: number };
  /** One access log line of the HTTP API. */
  accessLogKb: number;
  wafWebAcls: number;
  wafRules: number;
  cloudFrontDistributions: number;
  /** Functions started every minute by a schedule (the notifications' tick, the beacon reveals' schedule). */
  minuteSchedules: number;
}

export interface CostLine {
  item: string;
  quantity: string;
  arithmetic: string;
  cost: number;
}

const money = (n: number) => `$${n < 0.01 ? n.toFixed(5) : n.toFixed(2)}`;
const count = (n: number) => Math.round(n).toLocaleString('en-US');
const per1000 = (n: number) => `$${n.toFixed(4)}`;

/** The month's bill, line by line: `usage` grows with play; `standing` is there with no game at all. */
export function monthlyCost(scenario: Scenario, stack: StackFacts): { usage: CostLine[]; standing: CostLine[]; commands: number } {
  const p = PRICES;
  const f = FOOTPRINT;
  const commands = scenario.games * scenario.commandsPerGame;
  const reads = commands * scenario.readsPerCommand;
  const exports = scenario.games * scenario.exportsPerGame;
  const coldCommands = commands * scenario.coldCommandShare;
  const httpRequests = commands + reads + exports;
  const invocations = commands + reads + exports + commands; // the last: one push stream batch per commit
  const gbSeconds = commands * f.command.seconds * f.command.memoryGb + reads * f.read.seconds * f.read.memoryGb + commands * f.pushBatch.seconds * f.pushBatch.memoryGb + exports * 0.5 * 0.5;
  const writeUnits = commands * f.command.writeUnits;
  const readUnits = coldCommands * f.coldCommandReadUnits + reads * f.read.readUnits + commands * f.pushBatch.readUnits;
  const commandLogKb = stack.requestLogKb.command + f.platformLogKb + stack.accessLogKb;
  const readLogKb = stack.requestLogKb.read + f.platformLogKb + stack.accessLogKb;
  const logGb = (commands * commandLogKb + reads * readLogKb + commands * f.pushBatch.logKb) / 1e6;
  const tableGb = (commands * f.tableMbPer1000Commits) / 1000 / 1000;
  const messages = commands * scenario.pushSubscribersPerGame;
  const connectionMinutes = scenario.games * scenario.connectionMinutesPerGame;
  const traces = stack.tracing === 'Active' ? invocations : 0;
  const line = (item: string, quantity: string, arithmetic: string, cost: number): CostLine => ({ item, quantity, arithmetic, cost });
  const usage: CostLine[] = [
    line('KMS Sign (commit and signed head)', `${count(commands * f.command.kmsSigns)} requests`, `${count(commands * f.command.kmsSigns)} × $0.15 / 10,000`, commands * f.command.kmsSigns * p.kmsAsymmetricRequest),
    line('KMS Decrypt (a seed, per cold command)', `${count(coldCommands)} requests`, `${count(coldCommands)} × $0.03 / 10,000`, coldCommands * p.kmsSymmetricRequest),
    line('DynamoDB writes', `${count(writeUnits)} WRU`, `${count(writeUnits)} × $0.625 / 1,000,000`, writeUnits * p.dynamoWriteUnit),
    line('DynamoDB reads', `${count(readUnits)} RRU`, `${count(readUnits)} × $0.125 / 1,000,000`, readUnits * p.dynamoReadUnit),
    line('DynamoDB storage and point-in-time recovery', `${tableGb.toFixed(2)} GB`, `${tableGb.toFixed(2)} × ($0.25 + $0.20)`, tableGb * (p.dynamoStorageGbMonth + p.dynamoPitrGbMonth)),
    line('AWS Backup copies of the table', `${stack.backupsKept} × ${tableGb.toFixed(2)} GB`, `${stack.backupsKept} × ${tableGb.toFixed(2)} × $0.10`, stack.backupsKept * tableGb * p.backupStorageGbMonth),
    line('Lambda requests', `${count(invocations)} invocations`, `${count(invocations)} × $0.20 / 1,000,000`, invocations * p.lambdaRequest),
    line('Lambda duration (arm64)', `${count(gbSeconds)} GB-s`, `${count(gbSeconds)} × $0.0000133334`, gbSeconds * p.lambdaArmGbSecond),
    line('HTTP API requests', `${count(httpRequests)} requests`, `${count(httpRequests)} × $1.00 / 1,000,000`, httpRequests * p.httpApiRequest),
    line('WebSocket messages (pushed commits)', `${count(messages)} messages`, `${count(messages)} × $1.00 / 1,000,000`, messages * p.webSocketMessage),
    line('WebSocket connection minutes', `${count(connectionMinutes)} minutes`, `${count(connectionMinutes)} × $0.25 / 1,000,000`, connectionMinutes * p.webSocketConnectionMinute),
    line(
      'CloudWatch Logs ingested',
      `${logGb.toFixed(3)} GB`,
      `(${count(commands)} × ${commandLogKb.toFixed(2)} KB + ${count(reads)} × ${readLogKb.toFixed(2)} KB + ${count(commands)} × ${f.pushBatch.logKb} KB) × $0.50 / GB`,
      logGb * p.logsIngestedGb,
    ),
    line('CloudWatch Logs stored (30 days kept)', `${logGb.toFixed(3)} GB`, `${logGb.toFixed(3)} × $0.03`, logGb * p.logsStoredGbMonth),
    line('CloudWatch custom metrics, every hour', `${stack.alwaysOnMetricSeries} series`, `${stack.alwaysOnMetricSeries} × $0.30`, stack.alwaysOnMetricSeries * p.customMetricMonth),
    line(
      'CloudWatch custom metrics, failures only',
      `${stack.failureOnlyMetricSeries} series, ${scenario.failureHoursShare * 100}% of hours`,
      `${stack.failureOnlyMetricSeries} × $0.30 × ${scenario.failureHoursShare}`,
      stack.failureOnlyMetricSeries * p.customMetricMonth * scenario.failureHoursShare,
    ),
    line('X-Ray traces', `${count(traces)} traces (${stack.tracing})`, `${count(traces)} × $5.00 / 1,000,000`, traces * p.xrayTrace),
    line(
      'S3 exports (HEAD, PUT, GET by link; stored)',
      `${count(exports)} exports`,
      `${count(exports)} × ($0.005 + 2 × $0.0004) / 1,000 + ${((exports * f.exportMb) / 1000).toFixed(2)} GB × $0.023`,
      exports * (p.s3Put + 2 * p.s3Get) + ((exports * f.exportMb) / 1000) * p.s3StorageGbMonth,
    ),
  ];
  if (stack.wafWebAcls > 0) usage.push(line('AWS WAF requests', `${count(httpRequests)} requests`, `${count(httpRequests)} × $0.60 / 1,000,000`, httpRequests * p.wafRequest));
  if (stack.cloudFrontDistributions > 0) usage.push(line('CloudFront HTTPS requests', `${count(httpRequests)} requests`, `${count(httpRequests)} × $0.01 / 10,000`, httpRequests * p.cloudFrontHttpsRequest));
  const standing: CostLine[] = [
    line('KMS keys', `${stack.kmsKeys} keys`, `${stack.kmsKeys} × $1.00`, stack.kmsKeys * p.kmsKeyMonth),
    line('CloudWatch alarms', `${stack.alarms} alarms, ${stack.alarmMetrics} alarm metrics`, `${stack.alarmMetrics} × $0.10`, stack.alarmMetrics * p.alarmMetricMonth),
    line('CloudWatch dashboard', `${stack.dashboards}`, `${stack.dashboards} × $3.00`, stack.dashboards * p.dashboardMonth),
    line(
      'Functions run every minute',
      `${stack.minuteSchedules} × 43,200 invocations of ~0.1 s at 512 MB, ~0.5 KB of logs each`,
      `${stack.minuteSchedules} × 43,200 × ($0.20 / 1,000,000 + 0.05 GB-s × $0.0000133334 + 0.5 KB × $0.50 / GB)`,
      stack.minuteSchedules * 43_200 * (p.lambdaRequest + 0.05 * p.lambdaArmGbSecond + (0.5 / 1e6) * p.logsIngestedGb),
    ),
  ];
  if (stack.wafWebAcls > 0) standing.push(line('AWS WAF web ACLs and rules', `${stack.wafWebAcls} ACLs, ${stack.wafRules} rules`, `${stack.wafWebAcls} × $5.00 + ${stack.wafRules} × $1.00`, stack.wafWebAcls * p.wafWebAclMonth + stack.wafRules * p.wafRuleMonth));
  return { usage, standing, commands };
}

export interface CostSummary {
  commands: number;
  usage: number;
  standing: number;
  /** Everything the use adds, per 1,000 commands: the figure the target (≤ $0.05) is about. */
  usagePer1000: number;
  /** With the standing costs spread over the same commands. */
  totalPer1000: number;
}

export function summarize(bill: ReturnType<typeof monthlyCost>): CostSummary {
  const sum = (lines: CostLine[]) => lines.reduce((s, l) => s + l.cost, 0);
  const usage = sum(bill.usage);
  const standing = sum(bill.standing);
  return { commands: bill.commands, usage, standing, usagePer1000: (usage / bill.commands) * 1000, totalPer1000: ((usage + standing) / bill.commands) * 1000 };
}

/** The bill as markdown tables with the arithmetic (docs/deploy.md "What it costs" shows this output). */
export function costTable(scenario: Scenario, stack: StackFacts): string {
  const bill = monthlyCost(scenario, stack);
  const s = summarize(bill);
  const rows = (lines: CostLine[]) => lines.map((l) => `| ${l.item} | ${l.quantity} | ${l.arithmetic} | ${money(l.cost)} |`);
  return [
    `${scenario.name}: ${count(s.commands)} commands, ${count(s.commands * scenario.readsPerCommand)} reads.`,
    '',
    '| what the use adds | quantity a month | arithmetic | cost a month |',
    '|---|---|---|---|',
    ...rows(bill.usage),
    `| **total** | | | **${money(s.usage)}**, ${per1000(s.usagePer1000)} per 1,000 commands |`,
    '',
    '| standing, with no game at all | quantity | arithmetic | cost a month |',
    '|---|---|---|---|',
    ...rows(bill.standing),
    `| **total** | | | **${money(s.standing)}** |`,
    '',
    `All in, standing costs included: ${money(s.usage + s.standing)} a month, ${per1000(s.totalPer1000)} per 1,000 commands.`,
  ].join('\n');
}
