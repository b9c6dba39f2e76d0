/** A die as a commit records it (fairness-v1 §4). */
export interface Die {
  sides: number;
  value: number;
}
