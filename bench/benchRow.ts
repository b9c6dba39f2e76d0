/** One figure of the bench's page (bench/run.ts records and prints them). */
export interface BenchRow {
  section: string;
  figure: string;
  value: number;
  unit: string;
  floor?: { name: string; value: number };
  ratio?: number;
  target?: string;
  pass?: boolean;
}
