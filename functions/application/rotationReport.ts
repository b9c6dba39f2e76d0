/** What a key rotation prints, the same for the local server and the deployed stack. */
export function rotationReport({ previous, next, n, retiredAt }: { previous: string; next: string; n: number; retiredAt: string }, howToSwitch: string): string[] {
  return [
    `Signing key rotated (key log statement ${n}, signed by the old key).`,
    `  retired: ${previous}`,
    `  current: ${next}`,
    `The retired key signs nothing after ${retiredAt}: a verifier refuses anything it signed later (trust.md §6).`,
    howToSwitch,
    'Publish every fingerprint GET /keys lists, the retired one too: whoever pins only the new key cannot check the games the retired one signed.',
  ];
}
