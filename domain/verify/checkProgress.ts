/** The passes of a game's check, each over every commit: the chain and signatures, the dice (once sealed), the rules. */
export type CheckStep = 'chain' | 'dice' | 'rules';

/** Told after each commit of each pass: `done` of `total` commits. Called often, so keep it cheap. */
export type CheckProgress = (step: CheckStep, done: number, total: number) => void;

export const noProgress: CheckProgress = () => undefined;
