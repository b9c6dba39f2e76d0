/** What a key rotation prints, the same for the local server and the deployed stack. */
export function rotationReport({ previous, next, n }: { previous: string; next: string; n: number }, howToSwitch: string): string[] {
  return [
    `Signing key rotated (key log statement ${n}, signed by the old key).`,
    `  retired: ${previous}`,
    `  current: ${next}`,
    howToSwitch,
    'Publish the new fingerprint for those who pin from now on; pins of the retired one keep working through the key log every export carries.',
  ];
}
