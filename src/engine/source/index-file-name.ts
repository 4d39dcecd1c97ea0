/** The dataset index's file name in the dataset root (docs/conventions.md "Dataset index"); a leaf, for the sources. */
export const indexFileName = '_mixscope_index.parquet'
