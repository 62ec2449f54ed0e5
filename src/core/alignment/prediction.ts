// Moved to core/labels (issue 31): kept only so src/app's imports resolve until they point at core/labels.
export * from '../labels/prediction';
