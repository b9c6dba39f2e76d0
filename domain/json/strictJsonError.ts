/** Why a text is refused as JSON, with where: `position` counts UTF-16 code units from 0. */
export class StrictJsonError extends Error {
  readonly line: number;
  readonly column: number;

  constructor(
    readonly problem: string,
    readonly position: number,
    text: string,
  ) {
    const { line, column } = lineAndColumn(text, position);
    super(`${problem} at line ${line}, column ${column}`);
    this.name = 'StrictJsonError';
    this.line = line;
    this.column = column;
  }
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: position - lineStart + 1 };
}
