// Moved to engine/nodes (the interval join's config schema reads it); kept for its importers.
export * from '../nodes/signed-duration.ts';
