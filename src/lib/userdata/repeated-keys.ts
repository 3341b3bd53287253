// Keys repeated within one JSON object. JSON.parse keeps the last value without a word, so the
// mapping step reads the raw text of the sample (already known to be valid JSON) to say so.

export interface KeyRepeat {
  /** 1-based line of the repeated key. */
  line: number;
  /** Where the object is: '' for the record itself, else a path such as `meta.tags[2]`. */
  path: string;
  key: string;
}

interface Frame {
  /** Keys seen so far; null for an array. */
  keys: Set<string> | null;
  /** The key (objects) or index (arrays) of the value being read. */
  at: string | number;
}

/** A listing is for reading, not a full audit: past this many, the rest are not collected. */
const MAX_REPEATS = 100;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length - 1;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

function pathOf(stack: readonly Frame[], prefix: string): string {
  let path = prefix;
  for (const frame of stack.slice(0, -1)) {
    if (typeof frame.at === 'number') path += `[${frame.at}]`;
    else
      path += PLAIN_KEY.test(frame.at)
        ? `${path ? '.' : ''}${frame.at}`
        : `[${JSON.stringify(frame.at)}]`;
  }
  return path;
}

/**
 * Every key that an object of `text` (valid JSON) repeats, in order. `prefix` starts each path
 * (a document's records are `[3]`, `[4]`, …, so the top array is left out of their paths).
 */
export function repeatedKeys(text: string, firstLine = 1, skipTopArray = false): KeyRepeat[] {
  const out: KeyRepeat[] = [];
  const stack: Frame[] = [];
  let line = firstLine;
  let expectKey = false;
  for (let i = 0; i < text.length && out.length < MAX_REPEATS; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '"') {
      const end = stringEnd(text, i);
      const top = stack.at(-1);
      if (expectKey && top?.keys) {
        const raw = text.slice(i, end + 1);
        const key: string = raw.includes('\\') ? JSON.parse(raw) : raw.slice(1, -1);
        if (top.keys.has(key)) {
          const inDocument = skipTopArray && typeof stack[0]?.at === 'number';
          const frames = inDocument ? stack.slice(1) : stack;
          const prefix = inDocument ? `[${stack[0].at}]` : '';
          out.push({ line, path: pathOf(frames, prefix), key });
        } else top.keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i = end;
    } else if (c === '{') {
      stack.push({ keys: new Set(), at: '' });
      expectKey = true;
    } else if (c === '[') stack.push({ keys: null, at: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top?.keys) expectKey = true;
      else if (top && typeof top.at === 'number') top.at++;
    }
  }
  return out;
}

/** The mapping step's line for repeated keys, or null when there are none. */
export function describeRepeats(repeats: readonly KeyRepeat[]): string | null {
  if (repeats.length === 0) return null;
  const shown = repeats.slice(0, 3).map((r) => {
    const where = r.path ? ` in ${r.path}` : '';
    return `"${r.key}"${where} on line ${r.line}`;
  });
  const more = repeats.length > 3 ? ` and ${repeats.length - 3} more` : '';
  const n = repeats.length;
  return `${n} key${n === 1 ? '' : 's'} repeated within one object (${shown.join(', ')}${more}): only the last value of each is loaded, as JSON.parse does.`;
}
