// ---- THE WIRE SHIM --------------------------------------------------------------------
// The page calls one function of the generated module: `<fn>_wire(call, tag = "")`, which
// takes a call in the wire form (numbers as JavaScript numbers or bigints in the declared
// unit, enum values and dates as strings, booleans) and returns the fixtures record line,
// or throws RuleInputError / RuleContradictionError. Until the module exports it, this
// builds it from `<fn>_traced` and `<fn>_record`, reading the wire as the generated runner
// does: a whole number is that integer as a bigint, any other value goes in as it is, and
// a key that is not an input is refused after every input and constraint has been read.
// Delete this file, and its branch in src/doc/page.rs, once the module exports `_wire`.

/** The `<fn>_wire` of a module that has `traced` and `record`; `names` are its inputs in order. */
function rulecWireShim(traced, record, names, inputError) {
  const arg = (call, key) => {
    const v = Object.prototype.hasOwnProperty.call(call, key) ? call[key] : undefined;
    return typeof v === "number" && Number.isInteger(v) ? BigInt(v) : v;
  };
  const unknownKey = (call) => {
    for (const key of Object.keys(call)) {
      if (!names.includes(key)) {
        throw new inputError(key + " is not an input", null);
      }
    }
  };
  return function wire(call, tag = "") {
    const args = names.map((k) => arg(call, k));
    let result;
    try {
      result = traced(...args);
    } catch (e) {
      if (e !== null && typeof e === "object" && e.name === "RuleContradictionError") {
        unknownKey(call);
      }
      throw e;
    }
    unknownKey(call);
    return record(...args, result[0], result[1], tag);
  };
}
// ---- END OF THE WIRE SHIM -------------------------------------------------------------
