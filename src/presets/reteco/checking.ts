/**
 * RETECO (SemEval-2027 Task 1) public API: checking. Re-exports of src/presets/reteco/ modules.
 */
export {}
