// The client: the only caller of fetch in the workbench. Works in Node and the browser.
export * from './target';
export * from './policy';
export * from './errors';
export * from './attempts';
export * from './evaluate';
