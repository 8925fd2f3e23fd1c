/** A row of the layer table (DESIGN.md §1). */
export interface Layer {
  name: string;
  folder: string;
  mayImport: string[];
  builtins: boolean;
  electron: boolean;
  externals: true | string[];
}
/** The layer table, shared by ESLint and the architecture test. */
export declare const layers: Layer[];
/** Where the renderer's view folders live. */
export declare const viewsFolder: string;
/** The message a broken layer rule carries. */
export declare function layerMessage(from: Layer, to: string): string;
