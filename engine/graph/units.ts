// Moved to engine/nodes (the node definitions' config schemas read them); kept for its importers.
export * from '../nodes/units.ts';
