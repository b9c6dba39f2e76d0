// The player's command box: Roll for the dice ruleset, a form from the command's schema
// for the others. The commandId is made here and sent again, unchanged, on a retry.
import { ApiError, api, gamePath, newCommandId } from './api';
import type { BeaconChain } from '../../domain/beacon/chain';
import { senderCheck } from '../../domain/beacon/senderCheck';
import { maySend, type RulesetInfo } from './catalogue';
import { clockTime } from './commitRow';
import { clear, el, field, statusLine } from './dom';
import { schemaForm, type FormPart } from './schemaForm';

export interface CommandBoxOptions {
  gameId: string;
  token: string;
  role: string;
  sides: string[];
  ruleset: RulesetInfo;
  onSent(): void;
  /** A beacon game's chain, as its first commit records it: the sender's check reads round times from it. */
  beaconChain?: () => BeaconTimes | undefined;
}

export type BeaconTimes = Pick<BeaconChain, 'genesis' | 'period'>;

/** A 409 beacon_pending is retried after its Retry-After this many times at most, each wait at most MAX_RETRY_WAIT_S. */
const BEACON_RETRIES = 3;
const MAX_RETRY_WAIT_S = 30;

interface Sent {
  version: number;
  commit: { seq: number; events?: { type: string; data?: Record<string, unknown> }[] };
  /** A beacon game's roll, accepted and pending (202): the drand round it waits for. */
  beacon?: { chain: string; round: number; roundAt: string };
}

export type CommandBox = HTMLElement & {
  /** The timeline saw the reveal of pending commit `pendingSeq`: its text line is the roll's result. */
  revealed(pendingSeq: number, line: string): void;
};

export function commandBox(options: CommandBoxOptions): CommandBox {
  const { ruleset, role, sides } = options;
  const status = statusLine();
  // beacon.md §6: what only the sender can check, said beside the status line.
  const senderCheckLine = el('p', { class: 'sender-check', 'aria-live': 'polite', hidden: true });
  let waitingFor: number | undefined;
  const accepted = (reply: Sent, receivedAt: number, retried: boolean) => {
    const beacon = reply.beacon;
    if (!beacon) {
      senderCheckLine.hidden = true;
      return status.say(`Stored as #${reply.commit.seq}.`, 'ok');
    }
    waitingFor = reply.commit.seq;
    status.say(`Accepted as #${reply.commit.seq}: the dice come with drand round ${beacon.round} (due ${clockTime(beacon.roundAt)}), in a few seconds…`, 'ok');
    // The round the signed commit names, not the answer's word for it.
    const signed = reply.commit.events?.[0];
    const round = signed?.type === 'BeaconRollPending' && typeof signed.data?.round === 'number' ? signed.data.round : beacon.round;
    const check = senderCheck({ round, chain: options.beaconChain?.(), claimedRoundAt: beacon.roundAt, receivedAtMs: receivedAt, retried });
    senderCheckLine.hidden = false;
    senderCheckLine.textContent = check.text;
    senderCheckLine.className = `sender-check ${check.ok ? 'ok' : 'warning'}`;
  };
  const commands = ruleset.commands.filter((c) => maySend(c, role, sides) || (role === 'organizer' && c.who.sides !== 'none'));
  const asSelect = role === 'organizer' ? el('select', {}, el('option', { value: '' }, 'the organizer'), ...sides.map((s) => el('option', { value: s }, s))) : null;
  let pending: { key: string; commandId: string; unanswered: boolean } | undefined;

  const send = async (type: string, payload: unknown, button: HTMLButtonElement) => {
    const as = asSelect?.value || undefined;
    const body = { type, payload, ...(as ? { as } : {}) };
    const key = JSON.stringify(body);
    // The same command again after an unanswered try: the same id, so it is stored at most once.
    if (pending?.key !== key) pending = { key, commandId: newCommandId(), unanswered: false };
    button.disabled = true;
    status.say('Sending…');
    try {
      const reply = await sendWithRetries(pending.commandId, body);
      const retried = pending.unanswered;
      pending = undefined;
      accepted(reply, Date.now(), retried);
      options.onSent();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'beacon_pending') {
        status.say(`The game still waits for the dice of an earlier roll (its drand round is not revealed yet), so it takes no command meanwhile. Press the button again in a few seconds: the same command is sent again.`, 'error');
      } else if (error instanceof ApiError && error.status !== 503) {
        pending = undefined;
        status.say(`Refused (${error.status}): ${error.message}`, 'error');
      } else {
        if (pending) pending.unanswered = true;
        status.say('No answer from the server: press the button again to retry the same command (it is stored at most once).', 'error');
      }
    } finally {
      button.disabled = false;
    }
  };

  /** The command; a 409 beacon_pending (another roll waits for its beacon) is sent again after its Retry-After, a few times. */
  const sendWithRetries = async (commandId: string, body: object): Promise<Sent> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await api<Sent>('POST', gamePath(options.gameId, '/commands'), { token: options.token, body: { commandId, ...body } });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 'beacon_pending') || attempt >= BEACON_RETRIES) throw error;
        const wait = Math.min(Math.max(error.retryAfter ?? 1, 1), MAX_RETRY_WAIT_S);
        status.say(`The game waits for the dice of an earlier roll; sending again in ${wait} s…`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      }
    }
  };

  const box = el('section', { class: 'command-box', 'aria-labelledby': 'command-box-title' }) as CommandBox;
  box.revealed = (pendingSeq, line) => {
    if (pendingSeq !== waitingFor) return;
    waitingFor = undefined;
    status.say(`Revealed: ${line}`, 'ok');
  };
  box.append(el('h2', { id: 'command-box-title' }, role === 'organizer' ? 'Send a command' : `Play as ${role}`));
  if (asSelect) box.append(field('Act as', asSelect, 'The organizer may act for a side.'));

  const roll = ruleset.id === 'dice' ? ruleset.commands.find((c) => c.type === 'Roll') : undefined;
  if (roll) {
    const dice = el('input', { type: 'text', value: '2d6', required: true, maxlength: 200, autocomplete: 'off' });
    const purpose = el('input', { type: 'text', required: true, maxlength: 200, autocomplete: 'off', placeholder: 'e.g. attack on hex 1205' });
    const button = el('button', { type: 'submit' }, 'Roll');
    const form = el('form', { class: 'roll', 'aria-label': 'Roll dice' }, el('div', { class: 'row' }, field('Dice', dice, 'e.g. 3d6+1, d66, 4d6kh3, 6d6>=5'), field('Purpose', purpose, 'what the roll is for')), button);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void send('Roll', { dice: dice.value.trim(), purpose: purpose.value }, button);
    });
    box.append(form);
  }
  const others = commands.filter((c) => c !== roll);
  if (others.length) {
    const typeSelect = el('select', {}, ...others.map((c) => el('option', { value: c.type }, c.type)));
    const description = el('p', { class: 'hint' });
    const payloadSlot = el('div');
    const button = el('button', { type: 'submit' }, 'Send');
    let part: FormPart;
    const show = () => {
      const command = others.find((c) => c.type === typeSelect.value)!;
      description.textContent = `${command.description} Who: ${command.who.text ?? ''}`;
      part = schemaForm(command.payload, `${command.type} payload`);
      clear(payloadSlot);
      payloadSlot.append(part.element);
    };
    typeSelect.addEventListener('change', show);
    show();
    const form = el('form', { class: 'other-commands', 'aria-label': 'Other commands' }, field(roll ? 'Other command' : 'Command', typeSelect), description, payloadSlot, button);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      let payload: unknown;
      try {
        payload = part.read() ?? {};
      } catch (error) {
        status.say((error as Error).message, 'error');
        return;
      }
      void send(typeSelect.value, payload, button);
    });
    box.append(roll ? el('details', {}, el('summary', {}, 'Other commands'), form) : form);
  }
  box.append(status, senderCheckLine);
  return box;
}
