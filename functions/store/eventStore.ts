// The port moved to functions/ports/eventStore.ts; this path stays for the adapters and tests that import it.
export * from '../ports/eventStore';
