/** A build run on first use and kept; a failed build is tried again by the next caller. */
export function builtOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () => {
    built ??= build().catch((error) => {
      built = undefined;
      throw error;
    });
    return built;
  };
}
