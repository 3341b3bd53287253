// A brought model's files checked before ONNX Runtime sees them, so a damaged or mismatched file
// is named with its field and the fix instead of a raw JSON or ONNX Runtime error.

type Json = Record<string, unknown>;

/** 1-based line and column of `offset` in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

const WS = /[ \t\n\r]/;
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** Offset of the first character that makes `text` not JSON (JSON.parse gives none everywhere). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.test(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const string = () => {
    if (text[i] !== '"') fail();
    for (i++; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail();
      if (c === 0x5c) i++;
    }
    fail();
  };
  const member = () => {
    string();
    skip();
    if (text[i] !== ':') fail();
    i++;
    value();
  };
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === '{') return container('}', member);
    if (c === '[') return container(']', value);
    if (c === '"') return string();
    for (const re of [NUMBER, LITERAL]) {
      re.lastIndex = i;
      if (re.test(text)) return void (i = re.lastIndex);
    }
    fail();
  };
  const container = (close: string, item: () => void) => {
    i++;
    skip();
    if (text[i] === close) return void i++;
    for (;;) {
      skip();
      item();
      skip();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  try {
    value();
    skip();
    return i < text.length ? i : -1;
  } catch (at) {
    return typeof at === 'number' ? at : 0;
  }
}

/** `text` parsed as JSON, or an error naming `file`, the line and column, and the fix. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const offset = Math.max(0, jsonErrorOffset(text));
    if (offset >= text.length) {
      throw new Error(
        `${file}: not JSON: it ends early, after ${text.length} characters (cut short?); copy the file again from the model's export`,
      );
    }
    const { line, column } = lineColumn(text, offset);
    throw new Error(
      `${file}: not JSON at line ${line}, column ${column} (${JSON.stringify(text.slice(offset, offset + 20))}); copy the file again from the model's export`,
    );
  }
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Token ids tokenizer.json can produce: its vocabulary's and its added tokens' largest id + 1. */
export function tokenizerSize(tokenizer: Json): number | null {
  let max = -1;
  const model = isJson(tokenizer.model) ? tokenizer.model : {};
  const vocab = model.vocab;
  if (Array.isArray(vocab)) max = vocab.length - 1;
  else if (isJson(vocab)) {
    for (const id of Object.values(vocab)) if (typeof id === 'number' && id > max) max = id;
  } else return null;
  const added = Array.isArray(tokenizer.added_tokens) ? tokenizer.added_tokens : [];
  for (const t of added) if (isJson(t) && typeof t.id === 'number' && t.id > max) max = t.id;
  return max + 1;
}

/**
 * Why tokenizer.json does not fit the model's embedding table (config.json vocab_size), or null:
 * a token id past the table is ONNX Runtime's "indices element out of data bounds".
 */
export function tokenizerProblem(tokenizer: Json, config: Json): string | null {
  const size = tokenizerSize(tokenizer);
  const rows = config.vocab_size;
  if (size === null || typeof rows !== 'number' || size <= rows) return null;
  return `tokenizer.json has ${size} tokens but the model's embedding table has ${rows} rows (config.json vocab_size): the tokenizer is another model's; bring the tokenizer.json exported with these weights`;
}

/**
 * ONNX Runtime's words for a mismatched tokenizer or damaged weights, said with the file and the
 * fix; null for any other error (left as it is).
 */
export function onnxFailureMessage(err: unknown, where: string, weights: string): string | null {
  const detail = err instanceof Error ? err.message : String(err);
  const bounds =
    /indices element out of data bounds, idx=(-?\d+) must be within the inclusive range \[-?\d+,\s*(\d+)\]/.exec(
      detail,
    );
  if (bounds) {
    const rows = Number(bounds[2]) + 1;
    return `${where}: tokenizer.json gave token id ${bounds[1]} but the model's embedding table has ${rows} rows: the tokenizer is another model's; bring the tokenizer.json exported with these weights`;
  }
  if (/protobuf parsing failed|Failed to load model|invalid model|ONNX format/i.test(detail)) {
    return `${where}: ${weights} is not a whole ONNX model (cut short or damaged: ${detail.slice(0, 120)}); copy or download it again`;
  }
  return null;
}
