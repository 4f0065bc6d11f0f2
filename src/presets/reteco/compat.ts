/**
 * RETECO (SemEval-2027 Task 1) public API: compat. Re-exports of src/presets/reteco/ modules.
 */
export {}
