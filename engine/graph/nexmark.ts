// Moved to the `source.nexmark` definition's folder; kept for the modules that import it here.
export * from '../nodes/source-nexmark/nexmark.ts';
