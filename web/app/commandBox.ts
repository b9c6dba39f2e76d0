// The player's command box: Roll for the dice ruleset, a form from the command's schema
// for the others. The commandId is made here and sent again, unchanged, on a retry.
import { ApiError, api, gamePath, newCommandId } from './api';
import { maySend, type RulesetInfo } from './catalogue';
import { clear, el, field, statusLine } from './dom';
import { schemaForm, type FormPart } from './schemaForm';

export interface CommandBoxOptions {
  gameId: string;
  token: string;
  role: string;
  sides: string[];
  ruleset: RulesetInfo;
  onSent(): void;
}

export function commandBox(options: CommandBoxOptions): HTMLElement {
  const { ruleset, role, sides } = options;
  const status = statusLine();
  const commands = ruleset.commands.filter((c) => maySend(c, role, sides) || (role === 'organizer' && c.who.sides !== 'none'));
  const asSelect = role === 'organizer' ? el('select', {}, el('option', { value: '' }, 'the organizer'), ...sides.map((s) => el('option', { value: s }, s))) : null;
  let pending: { key: string; commandId: string } | undefined;

  const send = async (type: string, payload: unknown, button: HTMLButtonElement) => {
    const as = asSelect?.value || undefined;
    const body = { type, payload, ...(as ? { as } : {}) };
    const key = JSON.stringify(body);
    // The same command again after an unanswered try: the same id, so it is stored at most once.
    if (pending?.key !== key) pending = { key, commandId: newCommandId() };
    button.disabled = true;
    status.say('Sending…');
    try {
      const reply = await api<{ version: number; commit: { seq: number } }>('POST', gamePath(options.gameId, '/commands'), { token: options.token, body: { commandId: pending.commandId, ...body } });
      pending = undefined;
      status.say(`Stored as #${reply.commit.seq}.`, 'ok');
      options.onSent();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 503) {
        pending = undefined;
        status.say(`Refused (${error.status}): ${error.message}`, 'error');
      } else {
        status.say('No answer from the server: press the button again to retry the same command (it is stored at most once).', 'error');
      }
    } finally {
      button.disabled = false;
    }
  };

  const box = el('section', { class: 'command-box', 'aria-labelledby': 'command-box-title' });
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
  box.append(status);
  return box;
}
