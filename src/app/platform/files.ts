// Reading a file the user picked or dropped: the app's one module for it.

/** A file's text through FileReader, which every browser and jsdom have. */
export function fileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}
