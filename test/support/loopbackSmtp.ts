/**
 * An SMTP server on 127.0.0.1 for the tests (issue 33 e-mail): it accepts every mail, keeps it
 * raw and parsed (the few headers and the text the tests read; no mail parser is installed), and
 * answers RCPT TO with an error code where a test asks (refuse(address, 550)).
 *
 * As a program, to see Arbiter's mails locally:
 *
 *   node --import tsx test/support/loopbackSmtp.ts [--port 2525]
 *
 * prints its URL (for ARBITER_SMTP_URL) and then each mail's recipient, subject and text.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The message as it came, CRLF line ends. */
  raw: string;
  /** Every header, unfolded, encoded words decoded, in order. */
  headers: Array<[name: string, value: string]>;
  /** The first header of that name (case-insensitive). */
  header(name: string): string | undefined;
  /** The body, transfer encoding decoded, LF line ends. */
  text: string;
}

export interface LoopbackSmtp {
  /** smtp://127.0.0.1:<port>, for ARBITER_SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Answer RCPT TO for this address with the code (4xx: try later, 5xx: refused), until allow(). */
  refuse(address: string, code: number): void;
  allow(address: string): void;
  /** RCPT TO commands seen, refused ones included. */
  recipientsTried: string[];
  onMail?: (mail: ReceivedMail) => void;
  close(): Promise<void>;
}

function bytesOfQ(text: string, underscoreIsSpace: boolean): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === '_' && underscoreIsSpace) out.push(0x20);
    else out.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(out);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/y;

/** RFC 2047 encoded words (UTF-8, B or Q) decoded; white space between two of them dropped. */
export function decodeEncodedWords(value: string): string {
  let out = '';
  let pending: Buffer[] = [];
  let gap = '';
  const flush = () => {
    if (pending.length) out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  for (let i = 0; i < value.length; ) {
    ENCODED_WORD.lastIndex = i;
    const word = ENCODED_WORD.exec(value);
    if (word) {
      gap = '';
      pending.push(word[2]!.toUpperCase() === 'B' ? Buffer.from(word[3]!, 'base64') : bytesOfQ(word[3]!, true));
      i = ENCODED_WORD.lastIndex;
      continue;
    }
    const space = /^\s+/.exec(value.slice(i))?.[0];
    if (space && pending.length) {
      gap += space;
      i += space.length;
      continue;
    }
    flush();
    out += gap + value[i];
    gap = '';
    i++;
  }
  flush();
  return out + gap;
}

export function parseMail(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers: Array<[string, string]> = [];
  for (const line of head.split('\r\n')) {
    if (/^[ \t]/.test(line) && headers.length) headers[headers.length - 1]![1] += line.replace(/^[ \t]+/, ' ');
    else if (line.includes(':')) headers.push([line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
  }
  for (const entry of headers) entry[1] = decodeEncodedWords(entry[1].trim());
  const header = (name: string) => headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  const encoding = header('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? bytesOfQ(body.replace(/=\r\n/g, ''), false).toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return { envelope, raw, headers, header, text: text.replace(/\r\n/g, '\n') };
}

export async function startLoopbackSmtp(port = 0): Promise<LoopbackSmtp> {
  const refused = new Map<string, number>();
  const mails: ReceivedMail[] = [];
  const recipientsTried: string[] = [];
  let smtp: LoopbackSmtp;
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onRcptTo(address, _session, callback) {
      recipientsTried.push(address.address);
      const code = refused.get(address.address.toLowerCase());
      if (code === undefined) return callback();
      callback(Object.assign(new Error(code >= 500 ? 'No such mailbox here' : 'Mailbox busy, try again later'), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const envelope = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) };
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'), envelope);
        // Kept before the server answers 250: a send that resolved has its mail here.
        mails.push(mail);
        smtp.onMail?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.server.address() as AddressInfo;
  smtp = {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    recipientsTried,
    refuse: (address, code) => void refused.set(address.toLowerCase(), code),
    allow: (address) => void refused.delete(address.toLowerCase()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '2525' } } });
  const smtp = await startLoopbackSmtp(Number(values.port));
  smtp.onMail = (mail) => console.log(`--- to ${mail.envelope.to.join(', ')}\nSubject: ${mail.header('subject')}\n\n${mail.text}`);
  console.log(smtp.url);
  const stop = () => void smtp.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
