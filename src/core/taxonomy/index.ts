// Large taxonomies: more labels than one choice question takes (255). A pasted list or tree of labels becomes a plan of
// nested groups of at most 255 options, and a coarse-to-fine run chooses a group per request until a label is left.
export * from './parse';
export * from './plan';
export * from './run';
