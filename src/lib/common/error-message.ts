export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error about one file: its message starts with the file's name. Subclasses set `name`. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}
