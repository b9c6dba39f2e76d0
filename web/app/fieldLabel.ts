// A form field's label in words, from its schema's description, its API name kept beside it.

export const humanize = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ');
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** How a field is called: in words, its API name (none for a whole payload), and the rest of its description. */
export interface Label {
  text: string;
  name?: string;
  hint?: string;
}

/**
 * A property's label: the first clause of its description when that names the thing ("the attack
 * total"), else its name in words before it ("Energy: per cent"); the rest of the description is the hint.
 */
export function labelOf(name: string, description: string | undefined): Label {
  const words = capitalized(humanize(name).toLowerCase());
  if (!description) return { text: words, name };
  let clause = description.split(/;\s|:\s|\.\s/, 1)[0].trim();
  // A clause cut inside a bracket ("… (ruling: 1)") ends before the bracket.
  if (clause.split('(').length > clause.split(')').length) clause = clause.slice(0, clause.lastIndexOf('(')).trim();
  const stem = (w: string) => w.toLowerCase().replace(/s$/, '');
  const named = humanize(name).split(' ').some((w) => w.length > 1 && clause.toLowerCase().includes(stem(w)));
  // Too short to name anything ("2: the current rules"), or too long for a label: the name in words.
  const readable = (clause.match(/[A-Za-z]+/g) ?? []).length >= 2 && clause.length <= 90;
  const text = !readable ? words : named ? capitalized(clause) : `${words}: ${clause}`;
  return { text, name, hint: description === clause ? undefined : description };
}
