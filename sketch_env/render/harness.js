// sketch_env page harness. Installed with Playwright's add_init_script, so it runs in every new
// document before any library or sketch code (docs/design.md §3). Python fills the __CONFIG__
// placeholder with a JSON object; nothing else is templated.
//
// Everything the harness needs later (toDataURL, Reflect.apply, the PRNG state, the error log)
// is captured here, in a closure the sketch cannot reach: a sketch may replace any global it
// likes and the harness keeps reading the real canvas and reporting the real state.
//
// Results leave the page through one channel only (docs/rendering.md, "The readback channel"):
// a CDP binding whose secret name Python registered on the host page's context. It is taken off
// the global object here, before any other script of the document runs, and every message
// carries the per-render token that run() received; Python drops anything else. Messages are
// built as strings from captured built-ins (no JSON.stringify of objects, no array methods),
// because a sketch can poison Object.prototype, Array.prototype and friends before the
// harness reports.
(() => {
  "use strict";
  const CONFIG = __CONFIG__;
  let rawSend = null;
  try {
    rawSend = globalThis[CONFIG.binding];
    delete globalThis[CONFIG.binding];
  } catch (_) {
    rawSend = null;
  }

  // ---- primitives captured before any other script runs ------------------------------------
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const canvasProto = HTMLCanvasElement.prototype;
  const toDataURL = canvasProto.toDataURL;
  const getContext = canvasProto.getContext;
  const widthDesc = getOwnPropertyDescriptor(canvasProto, "width");
  const heightDesc = getOwnPropertyDescriptor(canvasProto, "height");
  const createElement = Document.prototype.createElement;
  const appendChild = Node.prototype.appendChild;
  const addEventListener = EventTarget.prototype.addEventListener;
  const push = Array.prototype.push;
  const stringSlice = String.prototype.slice;
  const regexpExec = RegExp.prototype.exec;
  const jsonQuote = JSON.stringify;
  const objectKeys = Object.keys;
  const assign = Object.assign;
  const objectCreate = Object.create;
  const isFiniteNumber = Number.isFinite;
  const offscreenProto = typeof OffscreenCanvas === "function" ? OffscreenCanvas.prototype : null;
  const offscreenGetContext = offscreenProto ? offscreenProto.getContext : null;
  const StringCtor = String;
  const ErrorCtor = Error;
  const RangeErrorCtor = RangeError;
  const imul = Math.imul;
  const floor = Math.floor;
  const getPrototypeOf = Object.getPrototypeOf;
  const numberToString = Number.prototype.toString;
  const setTimeoutFn = setTimeout.bind(window);

  // ---- seeded Math.random -------------------------------------------------------------------
  // xoshiro128** seeded through splitmix32. p5.brush draws its own PRNG seeds from Math.random
  // while its file is evaluated, so this must exist before p5.brush loads. Libraries load under
  // a fixed seed; run(seed) reseeds before the sketch runs, so a picture depends only on
  // (sketch, seed), whether or not its page was prepared in advance.
  const rngState = new Uint32Array(4);
  // crypto.getRandomValues draws from a stream of its own, so that a sketch's use of one source
  // does not move the other's numbers.
  const cryptoState = new Uint32Array(4);
  const CRYPTO_STREAM = 0x63727970; // "cryp"
  function reseedState(s, seed) {
    let x = (seed >>> 0) ^ 0x9e3779b9;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      s[i] = (z ^ (z >>> 16)) >>> 0;
    }
    if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  }
  function nextWord(s) {
    const r = imul(s[1], 5) >>> 0;
    const result = imul(((r << 7) | (r >>> 25)) >>> 0, 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ((s[3] << 11) | (s[3] >>> 21)) >>> 0;
    return result;
  }
  function reseed(seed) {
    reseedState(rngState, seed);
    reseedState(cryptoState, (seed ^ CRYPTO_STREAM) >>> 0);
  }
  function nextRandom() {
    return nextWord(rngState) / 4294967296;
  }
  reseed(CONFIG.librarySeed);
  Math.random = function random() {
    return nextRandom();
  };

  // ---- the clock and the page's other entropy (docs/rendering.md, "Determinism") ------------
  // Every clock the page offers reads one virtual clock, so the same sketch and seed paint the
  // same picture: measured before, `Date.now()`, `new Date()`, `performance.now()`, `millis()`
  // and crypto.getRandomValues each painted differently on every render. The clock restarts at
  // run() and moves deterministically: by `readStepMs` at every read (a sketch that waits on
  // millis() in a loop still gets there, and the deadline still bounds one that waits forever)
  // and to the next multiple of `frameMs` at every animation frame (p5's deltaTime is
  // 1000/60 ms, its frameRate() 60). Dates count from a fixed epoch, in UTC (host.py fixes the
  // time zone and locale too).
  const CLOCK = CONFIG.clock;
  const RealDate = Date;
  const construct = Reflect.construct;
  let clockNow = CLOCK.startMs; // ms since the virtual time origin
  let frameIndex = 0;
  let lastNativeFrame = -1;
  function tick() {
    const t = clockNow;
    clockNow += CLOCK.readStepMs;
    return t;
  }
  function epochNow() {
    return CLOCK.epochMs + tick();
  }
  function resetClock() {
    clockNow = CLOCK.startMs;
    frameIndex = 0;
    lastNativeFrame = -1;
  }
  const performanceProto = typeof Performance === "function" ? Performance.prototype : null;
  function lockGetter(target, name, get) {
    try {
      defineProperty(target, name, { get, configurable: false, enumerable: true });
    } catch (_) {
      // Not configurable (a second document in this context): keep the first lock.
    }
  }
  if (performanceProto !== null) {
    const realMark = performanceProto.mark;
    const realMeasure = performanceProto.measure;
    const realEntries = performanceProto.getEntries;
    const realEntriesByType = performanceProto.getEntriesByType;
    const realEntriesByName = performanceProto.getEntriesByName;
    const entryTypeGet = typeof PerformanceEntry === "function"
      ? getOwnPropertyDescriptor(PerformanceEntry.prototype, "entryType").get : null;
    lock(performanceProto, "now", function now() {
      return tick();
    });
    lockGetter(performanceProto, "timeOrigin", function timeOrigin() {
      return CLOCK.epochMs;
    });
    // The legacy timing record, the heap's size, the resource and paint entries: real times
    // and real sizes, each a source of its own. Marks and measures are kept, on the clock.
    const timing = record();
    for (let i = 0; i < CLOCK.timingFields.length; i++) timing[CLOCK.timingFields[i]] = CLOCK.epochMs;
    freeze(timing);
    lockGetter(performanceProto, "timing", function timing_() {
      return timing;
    });
    const memory = freeze(assign(record(), CLOCK.memory));
    lockGetter(performanceProto, "memory", function memory_() {
      return memory;
    });
    lock(performanceProto, "toJSON", function toJSON() {
      return { timeOrigin: CLOCK.epochMs };
    });
    const userTiming = (list) => {
      const kept = [];
      for (let i = 0; i < list.length; i++) {
        const type = apply(entryTypeGet, list[i], []);
        if (type === "mark" || type === "measure") apply(push, kept, [list[i]]);
      }
      return kept;
    };
    lock(performanceProto, "getEntries", function getEntries() {
      return userTiming(apply(realEntries, this, []));
    });
    lock(performanceProto, "getEntriesByType", function getEntriesByType() {
      return userTiming(apply(realEntriesByType, this, arguments));
    });
    lock(performanceProto, "getEntriesByName", function getEntriesByName() {
      return userTiming(apply(realEntriesByName, this, arguments));
    });
    lock(performanceProto, "mark", function mark(name, options) {
      const opts = assign({}, options);
      if (opts.startTime === undefined) opts.startTime = tick();
      return apply(realMark, this, [name, opts]);
    });
    lock(performanceProto, "measure", function measure(name, start, end) {
      const opts = start !== null && typeof start === "object" ? assign({}, start) : {};
      if (typeof start === "string" || typeof start === "number") opts.start = start;
      if (end !== undefined) opts.end = end;
      if (opts.start === undefined && opts.duration === undefined) opts.start = 0;
      if (opts.end === undefined && opts.duration === undefined) opts.end = tick();
      return apply(realMeasure, this, [name, opts]);
    });
  }
  if (typeof PerformanceObserver === "function") {
    // Observers report resource, paint and long-task entries: real times. One that observes
    // nothing keeps a sketch that uses it running.
    const Quiet = function PerformanceObserver() {
      if (new.target === undefined) throw new TypeError("Failed to construct 'PerformanceObserver'");
    };
    Quiet.prototype = objectCreate(null);
    Quiet.prototype.observe = function observe() {};
    Quiet.prototype.disconnect = function disconnect() {};
    Quiet.prototype.takeRecords = function takeRecords() { return []; };
    Quiet.supportedEntryTypes = freeze(["mark", "measure"]);
    lock(window, "PerformanceObserver", Quiet);
  }
  // Date: now, new Date() and Date() read the clock; a date the sketch gives is its own.
  const VirtualDate = function Date() {
    if (new.target === undefined) return apply(RealDate.prototype.toString, construct(RealDate, [epochNow()]), []);
    if (arguments.length === 0) return construct(RealDate, [epochNow()], new.target);
    return construct(RealDate, arguments, new.target);
  };
  VirtualDate.prototype = RealDate.prototype;
  lock(VirtualDate, "now", function now() {
    return floor(epochNow());
  });
  lock(VirtualDate, "parse", RealDate.parse);
  lock(VirtualDate, "UTC", RealDate.UTC);
  lock(RealDate.prototype, "constructor", VirtualDate);
  lock(window, "Date", VirtualDate);
  // Intl formats "now" when given no date.
  if (typeof Intl === "object" && Intl !== null && typeof Intl.DateTimeFormat === "function") {
    const dtf = Intl.DateTimeFormat.prototype;
    const formatDesc = getOwnPropertyDescriptor(dtf, "format");
    const realFormatToParts = dtf.formatToParts;
    if (formatDesc && typeof formatDesc.get === "function") {
      const realFormat = formatDesc.get;
      lockGetter(dtf, "format", function format() {
        const bound = apply(realFormat, this, []);
        return (date) => bound(date === undefined ? epochNow() : date);
      });
    }
    lock(dtf, "formatToParts", function formatToParts(date) {
      return apply(realFormatToParts, this, [date === undefined ? epochNow() : date]);
    });
  }
  // Temporal.Now, where the browser has it: the same clock, in UTC.
  if (typeof Temporal === "object" && Temporal !== null && Temporal.Instant && Temporal.Now) {
    const fromEpochMilliseconds = Temporal.Instant.fromEpochMilliseconds;
    const InstantCtor = Temporal.Instant;
    const instant = () => apply(fromEpochMilliseconds, InstantCtor, [floor(epochNow())]);
    const zoned = (zone) => instant().toZonedDateTimeISO(zone === undefined ? "UTC" : zone);
    lock(Temporal, "Now", freeze(assign(objectCreate(null), {
      instant,
      timeZoneId: () => "UTC",
      zonedDateTimeISO: zoned,
      plainDateTimeISO: (zone) => zoned(zone).toPlainDateTime(),
      plainDateISO: (zone) => zoned(zone).toPlainDate(),
      plainTimeISO: (zone) => zoned(zone).toPlainTime(),
    })));
  }
  // The document's and new files' modification times are "now" too.
  if (typeof Document === "function") {
    const modified = CLOCK.lastModified;
    lockGetter(Document.prototype, "lastModified", function lastModified() {
      return modified;
    });
  }
  if (typeof File === "function") {
    const RealFile = File;
    const VirtualFile = function File(bits, name, options) {
      if (new.target === undefined) throw new TypeError("Failed to construct 'File': use 'new'");
      const opts = assign({}, options);
      if (opts.lastModified === undefined) opts.lastModified = floor(epochNow());
      return construct(RealFile, [bits, name, opts], new.target);
    };
    VirtualFile.prototype = RealFile.prototype;
    lock(RealFile.prototype, "constructor", VirtualFile);
    lock(window, "File", VirtualFile);
  }
  // Event times: each event keeps the clock's time at its first reading.
  const eventTimes = new WeakMap();
  const weakMapGet = WeakMap.prototype.get;
  const weakMapSet = WeakMap.prototype.set;
  if (typeof Event === "function") {
    lockGetter(Event.prototype, "timeStamp", function timeStamp() {
      let t = apply(weakMapGet, eventTimes, [this]);
      if (t === undefined) {
        t = tick();
        apply(weakMapSet, eventTimes, [this, t]);
      }
      return t;
    });
  }
  // Animation frames: one frame of the clock per frame of the browser, whose callbacks share
  // its time, as they do the browser's.
  const realRAF = window.requestAnimationFrame;
  if (typeof realRAF === "function") {
    lock(window, "requestAnimationFrame", function requestAnimationFrame(callback) {
      if (typeof callback !== "function") return apply(realRAF, window, [callback]);
      return apply(realRAF, window, [function (nativeTime) {
        if (nativeTime !== lastNativeFrame) {
          lastNativeFrame = nativeTime;
          frameIndex += 1;
        }
        const frameTime = CLOCK.startMs + frameIndex * CLOCK.frameMs;
        if (clockNow < frameTime) clockNow = frameTime;
        return callback(clockNow);
      }]);
    });
  }
  if (typeof AnimationTimeline === "function") {
    lockGetter(AnimationTimeline.prototype, "currentTime", function currentTime() {
      return tick();
    });
  }
  if (typeof BaseAudioContext === "function") {
    lockGetter(BaseAudioContext.prototype, "currentTime", function currentTime() {
      return tick() / 1000;
    });
  }
  // Idle callbacks get a deadline without time left (the real one measures the machine).
  const realRIC = window.requestIdleCallback;
  if (typeof realRIC === "function") {
    const noTime = freeze(assign(objectCreate(null), { didTimeout: false, timeRemaining: () => 0 }));
    lock(window, "requestIdleCallback", function requestIdleCallback(callback, options) {
      if (typeof callback !== "function") return apply(realRIC, window, [callback, options]);
      return apply(realRIC, window, [() => callback(noTime), options]);
    });
  }
  // crypto: numbers from the seeded stream, after the browser's own checks (type, size).
  if (typeof Crypto === "function") {
    const cryptoProto = Crypto.prototype;
    const realGetRandomValues = cryptoProto.getRandomValues;
    const typedProto = getPrototypeOf(Uint8Array.prototype);
    const bufferGet = getOwnPropertyDescriptor(typedProto, "buffer").get;
    const offsetGet = getOwnPropertyDescriptor(typedProto, "byteOffset").get;
    const lengthGet = getOwnPropertyDescriptor(typedProto, "byteLength").get;
    const Uint8 = Uint8Array;
    const seededBytes = (array) => {
      const bytes = construct(Uint8, [apply(bufferGet, array, []), apply(offsetGet, array, []), apply(lengthGet, array, [])]);
      for (let i = 0; i < bytes.length; i += 4) {
        const word = nextWord(cryptoState);
        for (let k = 0; k < 4 && i + k < bytes.length; k++) bytes[i + k] = (word >>> (8 * k)) & 0xff;
      }
    };
    lock(cryptoProto, "getRandomValues", function getRandomValues(array) {
      const result = apply(realGetRandomValues, this, [array]);
      seededBytes(array);
      return result;
    });
    if (typeof cryptoProto.randomUUID === "function") {
      lock(cryptoProto, "randomUUID", function randomUUID() {
        const b = new Uint8(16);
        seededBytes(b);
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let hex = "";
        for (let i = 0; i < 16; i++) {
          hex += (b[i] < 16 ? "0" : "") + apply(numberToString, b[i], [16]);
          if (i === 3 || i === 5 || i === 7 || i === 9) hex += "-";
        }
        return hex;
      });
    }
  }

  // ---- harness state ------------------------------------------------------------------------
  // Null-prototype records: a sketch that defines setters or getters on Object.prototype
  // cannot intercept the harness's own writes and reads.
  function record() {
    return objectCreate(null);
  }
  const state = record();
  state.phase = "loading"; // loading -> ready -> running -> done
  state.doneReason = null; // complete | frame_cap | error | no_p5
  state.errors = record(); // index -> text; a plain array would go through Array.prototype
  state.errorCount = 0;
  state.frames = 0;
  state.setupDone = false;
  state.started = false;
  state.sketchLoaded = false;
  state.image = null;
  state.canvasKind = null;
  state.userCanvas = false;
  state.defaultCanvasPending = false;
  state.width = 0;
  state.height = 0;
  state.ran = false;
  state.seed = 0;
  state.token = null;
  state.reported = false;
  state.violation = false;
  let instance = null;
  let p5Class = null;
  // The canvas p5 made for the sketch, recorded when p5's own createCanvas gave it a context
  // (see createCanvas below): p5.instance.canvas and _renderer.canvas are the sketch's to
  // redefine.
  let sketchCanvas = null;
  let creatingCanvas = false;
  let constructing = false;

  function cut(text) {
    return apply(stringSlice, StringCtor(text), [0, CONFIG.maxErrorChars]);
  }

  function describe(err) {
    if (err === null || err === undefined) return StringCtor(err);
    let text;
    try {
      const name = err.name || "Error";
      text = err.message !== undefined ? name + ": " + err.message : StringCtor(err);
      text = cut(text);
    } catch (_) {
      text = "unprintable error";
    }
    try {
      const stack = cut(StringCtor(err.stack || ""));
      const match = apply(regexpExec, /sketch\.js:(\d+):(\d+)/, [stack]);
      if (match) text += " (sketch.js:" + match[1] + ":" + match[2] + ")";
    } catch (_) {
      // A hostile error object may throw from its getters; the message is enough.
    }
    return text;
  }

  function note(text) {
    if (state.errorCount < CONFIG.maxErrors) {
      let safe;
      try {
        safe = cut(text);
      } catch (_) {
        safe = "unprintable error";
      }
      state.errors[state.errorCount] = safe;
      state.errorCount += 1;
    }
  }

  function recordError(text) {
    note(text);
    if (state.phase !== "done") {
      capture();
      finish("error");
      try {
        if (instance) instance.noLoop();
      } catch (_) {
        // The instance may be half-built; stopping the loop is only a saving.
      }
    }
  }

  addEventListener.call(window, "error", (event) => {
    try {
      if (event && event.error !== undefined && event.error !== null) {
        recordError(describe(event.error));
      } else if (event && event.message) {
        let text = cut(event.message);
        const file = StringCtor(event.filename || "");
        if (apply(regexpExec, /sketch\.js$/, [file])) {
          text += " (sketch.js:" + event.lineno + ":" + event.colno + ")";
        }
        recordError(text);
      }
    } catch (_) {
      recordError("an error the harness could not read");
    }
  }, true);
  // p5 2.x runs setup and draw inside promises: their errors arrive here (docs/design.md §3.3).
  addEventListener.call(window, "unhandledrejection", (event) => {
    let reason;
    try {
      reason = event.reason;
    } catch (_) {
      reason = "an error the harness could not read";
    }
    recordError(describe(reason));
  }, true);

  // ---- the readback channel -----------------------------------------------------------------
  function quote(value) {
    // JSON.stringify of a primitive string looks nothing up on any prototype.
    return jsonQuote(StringCtor(value));
  }
  function num(value) {
    return typeof value === "number" && isFiniteNumber(value) ? StringCtor(value) : "0";
  }
  function send(kind, body) {
    if (rawSend === null || state.token === null) return;
    try {
      apply(rawSend, globalThis, ['{"t":' + quote(state.token) + ',"k":' + quote(kind) + body + "}"]);
    } catch (_) {
      // The binding only fails when the page is being torn down: nothing to report to.
    }
  }
  function report(kind) {
    let errors = "";
    for (let i = 0; i < state.errorCount; i++) {
      errors += (i ? "," : "") + quote(state.errors[i]);
    }
    let api = "";
    const names = objectKeys(counts);
    for (let i = 0; i < names.length; i++) {
      api += (i ? "," : "") + quote(names[i]) + ":" + num(counts[names[i]]);
    }
    send(kind,
      ',"phase":' + quote(state.phase) +
      ',"reason":' + (state.doneReason === null ? "null" : quote(state.doneReason)) +
      ',"errors":[' + errors + "]" +
      ',"frames":' + num(state.frames) +
      ',"started":' + (state.started ? "true" : "false") +
      ',"canvasKind":' + (state.canvasKind === null ? "null" : quote(state.canvasKind)) +
      ',"userCanvas":' + (state.userCanvas ? "true" : "false") +
      ',"width":' + num(state.width) +
      ',"height":' + num(state.height) +
      ',"violation":' + (state.violation ? "true" : "false") +
      ',"api":{' + api + "}" +
      ',"image":' + (typeof state.image === "string" ? quote(state.image) : "null"));
  }

  function finish(reason) {
    if (state.phase === "done") return;
    state.phase = "done";
    state.doneReason = reason;
    if (!state.reported) {
      state.reported = true;
      report("done");
    }
  }

  // Reads the canvas p5 made for the sketch through the toDataURL captured above, so a sketch
  // that replaces HTMLCanvasElement.prototype.toDataURL, or points p5.instance.canvas at a
  // canvas of its own, cannot hand back a picture of its choosing.
  function capture() {
    const canvas = sketchCanvas;
    if (canvas === null) return;
    try {
      state.width = apply(widthDesc.get, canvas, []);
      state.height = apply(heightDesc.get, canvas, []);
      if (apply(getContext, canvas, ["webgl2"]) || apply(getContext, canvas, ["webgl"])) {
        state.canvasKind = "webgl";
      } else {
        state.canvasKind = "2d";
      }
      state.image = apply(toDataURL, canvas, ["image/png"]);
    } catch (err) {
      note("harness: could not read the canvas: " + describe(err));
    }
  }

  // ---- provenance: which code made a call (docs/rendering.md, "Run-time accounting") ---------
  // Every call the harness counts is attributed to the code that made it, read from a V8 stack
  // trace. The Error machinery is locked here, before any other script exists: the sketch can
  // neither read the harness's stack frames (prepareStackTrace hands CallSite objects to the
  // harness only) nor usefully shorten them (stackTraceLimit, below). Scripts are told apart by
  // the SHA-256 of
  // their source (CallSite.getScriptHash; Python computes the libraries' from the bytes it
  // serves), which a sketch cannot give its own code: `//# sourceURL=` renames what a stack
  // prints, not the script it came from (measured), and the frame's CSP forbids eval.
  const SKETCH = 0; // the sketch (any script that is not a library, a built-in, the event loop)
  const P5 = 1;
  const BRUSH = 2;
  const HARNESS = 3;
  const captureStackTrace = ErrorCtor.captureStackTrace;
  const errorToString = ErrorCtor.prototype.toString;
  let capturing = false;
  function prepareStackTrace(error, frames) {
    if (capturing) return frames;
    // Everyone else gets V8's own format, so error messages keep their sketch.js:line:col.
    let text;
    try {
      text = StringCtor(apply(errorToString, error, []));
    } catch (_) {
      text = "Error";
    }
    for (let i = 0; i < frames.length; i++) {
      let where;
      try {
        where = StringCtor(apply(siteToString, frames[i], []));
      } catch (_) {
        where = "<unknown>";
      }
      text += "\n    at " + where;
    }
    return text;
  }
  // One capture before the lock gives the CallSite methods and the harness's own script hash.
  const bootHolder = objectCreate(null);
  defineProperty(ErrorCtor, "prepareStackTrace", {
    value: (_, frames) => frames, writable: true, configurable: true,
  });
  captureStackTrace(bootHolder);
  const bootFrames = bootHolder.stack;
  const siteProto = getPrototypeOf(bootFrames[0]);
  const siteHash = siteProto.getScriptHash;
  const siteLine = siteProto.getLineNumber;
  const siteColumn = siteProto.getColumnNumber;
  const siteToString = siteProto.toString;
  const selfHash = apply(siteHash, bootFrames[0], []);
  const STACK_LIMIT = CONFIG.stackLimit;
  const WALK_LIMIT = 12;
  defineProperty(ErrorCtor, "prepareStackTrace", {
    value: prepareStackTrace, writable: false, configurable: false, enumerable: false,
  });
  // stackTraceLimit stays a writable data property (V8 reads it as one: an accessor there gives
  // no stack at all) that nobody can delete or turn into an accessor; the harness sets its own
  // limit for each capture and puts the sketch's back. A sketch that makes it read-only, or
  // overflows the stack, leaves the harness without frames, and then every call counts as the
  // sketch's: it can only blind the harness against itself.
  defineProperty(ErrorCtor, "stackTraceLimit", {
    value: ErrorCtor.stackTraceLimit, writable: true, configurable: false, enumerable: true,
  });
  const p5Hash = CONFIG.provenance.hashes.p5;
  const brushHash = CONFIG.provenance.hashes.brush;
  // name@<library>:<line>:<column> for every place a library's source spells a name it calls.
  const spelled = record();
  for (let i = 0; i < CONFIG.provenance.sites.length; i++) {
    const site = CONFIG.provenance.sites[i];
    spelled[site[1] + "@" + (site[0] === "p5" ? P5 : BRUSH) + ":" + site[2] + ":" + site[3]] = true;
  }
  function kindOf(frame) {
    const hash = apply(siteHash, frame, []);
    if (hash === selfHash) return HARNESS;
    if (hash === p5Hash) return P5;
    if (hash === brushHash) return BRUSH;
    return SKETCH;
  }
  // The stack below `top` (a wrapper: its caller is frames[0]), at most `limit` frames.
  function stackNow(limit, top) {
    const holder = objectCreate(null);
    const saved = ErrorCtor.stackTraceLimit;
    ErrorCtor.stackTraceLimit = limit; // throws if the sketch froze it: the caller fails closed
    capturing = true;
    try {
      captureStackTrace(holder, top);
      return holder.stack;
    } finally {
      capturing = false;
      ErrorCtor.stackTraceLimit = saved;
    }
  }

  // The wrappers running right now, innermost last, each with its owner: a library call made
  // inside one (p5's rect drawing through WebGL) belongs to whoever made the outer call.
  const openOwner = record();
  const openNeutral = record();
  let open = 0;
  // What attribute() answers: the first two are the sketch's doing and count.
  const DIRECT = 1; // the sketch called it (or handed it to a library, which called it for it)
  const VIA_P5 = 2; // the sketch called p5 code the harness does not wrap, which called it
  const NESTED = 3; // inside a wrapped call the sketch made: that call was counted, or allowed
  const NEUTRAL_DRAW = 4; // a p5 drawing call inside an allowed one (background(img) -> image)
  const LIBRARY = 5; // p5.brush's own work, or p5's for itself
  let brushOwned = false; // set by attribute(): the work is p5.brush's
  function enclosing(drawing) {
    if (open === 0) {
      brushOwned = false;
      return LIBRARY; // harness code, not a wrapper (a lifecycle hook, run()): p5's own
    }
    const owner = openOwner[open - 1];
    brushOwned = owner === BRUSH;
    if (owner !== SKETCH) return LIBRARY;
    return drawing && openNeutral[open - 1] === true ? NEUTRAL_DRAW : NESTED;
  }
  // Who made the call to the wrapped function `name` that is running now, as `top` (the
  // wrapper). `drawing`: it is a p5 drawing or raw-graphics function (one an allowed p5 call
  // must not make on the sketch's behalf). Most calls are decided by their caller alone; only
  // p5's calls need the frames below (measured on the reference pool and the honest-use
  // sketches of the tests: the first frame that is not p5's is at most 8 frames below the
  // caller, within WALK_LIMIT). The first capture takes WALK_LIMIT frames at once: under
  // Playwright V8 walks up to 200 frames for its DevTools session on every capture whatever the
  // limit (render/libraries.py), so a one-frame capture cost as much and p5's calls took two.
  function attribute(name, drawing, top) {
    brushOwned = false;
    let frames;
    try {
      frames = stackNow(WALK_LIMIT, top);
    } catch (_) {
      return DIRECT; // no stack (an overflow, a frozen stackTraceLimit): fail closed
    }
    if (frames.length === 0) return DIRECT; // called straight from the event loop
    const caller = frames[0];
    const kind = kindOf(caller);
    if (kind === SKETCH) return DIRECT;
    if (kind === HARNESS) return enclosing(drawing);
    // A library's own calls are made where its source spells the name. Anywhere else it calls
    // something the sketch gave it (a field generator, a tip, a valueOf coerced in arithmetic):
    // the sketch's call. p5 also dispatches by computed name (`this._renderer[func](...)` for
    // its text functions), which is p5's own work only inside a call the sketch itself made.
    const here = spelled[name + "@" + kind + ":" + apply(siteLine, caller, []) + ":" +
      apply(siteColumn, caller, [])] === true;
    if (kind === BRUSH) {
      if (!here) return DIRECT;
      brushOwned = true;
      return LIBRARY;
    }
    // p5 called it for someone: the first frame below p5's says who (a short look first).
    for (let limit = WALK_LIMIT; ; limit = STACK_LIMIT) {
      if (limit !== WALK_LIMIT) {
        try {
          frames = stackNow(limit, top);
        } catch (_) {
          return DIRECT;
        }
      }
      const n = frames.length;
      for (let j = 1; j < n; j++) {
        const below = kindOf(frames[j]);
        if (below === P5) continue;
        if (below === HARNESS) {
          if (!here && (open === 0 || openOwner[open - 1] !== SKETCH)) return DIRECT;
          return enclosing(drawing);
        }
        if (below === BRUSH && here) {
          brushOwned = true;
          return LIBRARY;
        }
        return here ? VIA_P5 : DIRECT;
      }
      // Only p5 below: p5's own work from the event loop. A stack cut short is looked at again
      // in full, and at the full limit counts as the sketch's (fail closed).
      if (!here) return DIRECT;
      if (n < limit) return LIBRARY;
      if (limit === STACK_LIMIT) return VIA_P5;
    }
  }
  function ownerOf(who) {
    if (who === LIBRARY) return brushOwned ? BRUSH : P5;
    return SKETCH;
  }
  // Runs `original` as a wrapped call owned by `owner` (SKETCH, P5 or BRUSH).
  function enter(owner, neutral, original, self, args) {
    openOwner[open] = owner;
    openNeutral[open] = neutral;
    open += 1;
    try {
      return apply(original, self, args);
    } finally {
      open -= 1;
    }
  }

  // ---- p5.brush's own calls, stated by its served source (render/libraries.py) ---------------
  // The served p5.brush calls `__sketchenvLibraryCall(OBJ, "NAME").NAME(ARGS)` wherever its
  // source spells a wrapped name: exactly the places where attribute() finds p5.brush's own
  // call (a caller frame of p5.brush's script at a place spelling the name), which it took a
  // stack ~19 frames deep to find (14 µs each under Playwright, whose DevTools session makes V8
  // collect 200 frames on every capture; 62,000 2D fills in one watercolour). When OBJ.NAME is
  // a harness wrapper for that very name, the helper returns an object whose NAME runs it as
  // the wrapper runs p5.brush's own call; anything else gets OBJ back and is called as before.
  const WeakMapCtor = WeakMap;
  // wrapper -> { name, original, neutral, paints, fastFor: obj -> object, last: obj, lastFast }
  const routed = new WeakMapCtor();
  // `paints`: a WebGL draw, which is p5.brush's paint when it lands on the sketch's canvas.
  function routeAs(wrapper, name, original, neutral, paints) {
    const info = record();
    info.name = name;
    info.original = original;
    info.neutral = neutral;
    info.paints = paints;
    info.fastFor = null; // made on first use: most wrappers are never routed
    info.last = null;
    info.lastFast = null;
    apply(weakMapSet, routed, [wrapper, info]);
  }
  // What the wrapper does for p5.brush's own call (LIBRARY, owned by p5.brush, not counted),
  // without asking who called: enter()'s work, inline (a watercolour makes 65,000 of these).
  function fastCall(info, obj) {
    const original = info.original;
    const neutral = info.neutral;
    const paints = info.paints;
    return function () {
      if (paints && paintsCanvas(obj)) bump(CONFIG.api.brushPaint);
      openOwner[open] = BRUSH;
      openNeutral[open] = neutral;
      open += 1;
      try {
        return apply(original, obj, arguments);
      } finally {
        open -= 1;
      }
    };
  }
  let lastWrapper = null; // p5.brush calls one wrapper on one object many times in a row
  let lastInfo = null;
  function libraryCall(obj, name) {
    if (obj === null || (typeof obj !== "object" && typeof obj !== "function")) return obj;
    const f = obj[name];
    let info = lastInfo;
    if (f !== lastWrapper || f === null) {
      info = typeof f === "function" ? apply(weakMapGet, routed, [f]) : undefined;
      if (info === undefined) return obj;
      lastWrapper = f;
      lastInfo = info;
    }
    if (info.name !== name) return obj;
    if (info.last === obj) return info.lastFast;
    if (info.fastFor === null) info.fastFor = new WeakMapCtor();
    let fast = apply(weakMapGet, info.fastFor, [obj]);
    if (fast === undefined) {
      fast = record();
      fast[name] = fastCall(info, obj);
      freeze(fast);
      apply(weakMapSet, info.fastFor, [obj, fast]);
    }
    info.last = obj;
    info.lastFast = fast;
    return fast;
  }
  // The helper goes only to the served p5.brush, as it loads: a caller frame of its script (by
  // its SHA-256, which no other code can have). A stack the sketch froze or overflowed gets
  // nothing (p5.brush then calls through the wrappers, attributed as before).
  function libraryCalls() {
    let frames;
    try {
      frames = stackNow(1, libraryCalls);
    } catch (_) {
      return null;
    }
    if (frames.length === 0 || apply(siteHash, frames[0], []) !== brushHash) return null;
    return libraryCall;
  }

  // ---- runtime accounting of drawing APIs (docs/rendering.md) ---------------------------------
  // Which drawing APIs the sketch called, counted by wrappers installed before the sketch runs
  // (on p5.prototype, p5.Graphics.prototype, the renderers, p5.brush, the canvas prototypes and
  // the WebGL and 2D contexts), so aliases (`const e = ellipse`, `window.ellipse`, `g.ellipse`
  // on a createGraphics buffer, a raw context's `gl.clear`) reach the same counter. Each call is
  // attributed to the code that made it (above): sketch code counts wherever it runs, also
  // inside a p5.brush call (a valueOf of an argument, a field generator, a custom tip), and the
  // libraries' own use of p5 does not.
  const counts = record();
  // A frame the sketch makes (an iframe of its document) has a harness and wrappers of its
  // own, and its functions work on the sketch's objects: its WebGL2RenderingContext's `clear`
  // cleared the sketch's canvas uncounted. Such a harness never runs a sketch; it hands each
  // count to the frame above it, captured before any sketch code (a sketch can replace a
  // frame's `parent`). The render's own frame counts; its parent, the host, is another origin.
  const parentWindow = window.parent;
  function bump(key) {
    if (state.ran) {
      counts[key] = (counts[key] || 0) + 1;
    } else if (parentWindow !== window && known[key] === true) {
      try {
        parentWindow.__sketchenv.tally(key);
      } catch (_) {
        // The host page (cross-origin), or a parent that went away: nothing to count for.
      }
    }
  }
  // Every name a count may have (what `tally` accepts from a child frame's harness).
  const known = record();
  for (let i = 0; i < CONFIG.api.known.length; i++) known[CONFIG.api.known[i]] = true;
  function tally(key) {
    if (known[key] === true) bump(key);
  }
  function counted(who) {
    return who === DIRECT || who === VIA_P5 || who === NEUTRAL_DRAW;
  }
  function lockValue(target, name, value, enumerable) {
    try {
      defineProperty(target, name, { value, writable: false, configurable: false, enumerable });
    } catch (_) {
      // Not configurable (already locked): the earlier wrapper stays.
    }
  }
  // A function of p5 or p5.brush: counted under `key` (null: never) when the sketch makes the
  // call; `drawing` as for attribute(); `neutral`: an allowed call that draws for itself.
  function wrapCall(target, name, key, drawing, neutral) {
    const desc = target ? getOwnPropertyDescriptor(target, name) : undefined;
    if (!desc || typeof desc.value !== "function") return;
    const original = desc.value;
    const wrapper = function () {
      const who = attribute(name, drawing, wrapper);
      if (key !== null && counted(who)) bump(key);
      return enter(ownerOf(who), neutral, original, this, arguments);
    };
    lockValue(target, name, wrapper, desc.enumerable);
    // p5.brush's own call at a place spelling `name`: LIBRARY, owned by p5.brush, not counted.
    routeAs(wrapper, name, original, neutral, false);
  }
  // A p5.brush function that counts for nothing (a setter, or its push/pop): only locked. Its
  // own code is p5.brush's, so whatever it calls is attributed without asking who called it
  // (a sixth of all attributions on the heaviest reference went to brush.set, push and pop).
  function lockLibrary(target, name) {
    const desc = target ? getOwnPropertyDescriptor(target, name) : undefined;
    if (!desc || typeof desc.value !== "function") return;
    const original = desc.value;
    lockValue(target, name, function () {
      return enter(BRUSH, false, original, this, arguments);
    }, desc.enumerable);
  }
  function wrapGetter(target, name, key) {
    const desc = target ? getOwnPropertyDescriptor(target, name) : undefined;
    if (!desc || typeof desc.get !== "function") return;
    const original = desc.get;
    try {
      defineProperty(target, name, {
        configurable: false,
        enumerable: desc.enumerable,
        get: function getter() {
          const who = attribute(name, true, getter);
          if (who === DIRECT) bump(key); // a handle: p5's own reads for the sketch paint nothing
          return enter(ownerOf(who), false, original, this, []);
        },
        set: desc.set,
      });
    } catch (_) {
      // Already locked.
    }
  }

  // The context p5's createCanvas made for the sketch (see deterministicGetContext): a draw
  // p5.brush makes on it, into the canvas itself (no framebuffer bound), is paint.
  let sketchGL = null;
  const glDraws = record();
  for (let i = 0; i < CONFIG.api.webglDraws.length; i++) glDraws[CONFIG.api.webglDraws[i]] = true;
  let sketchGetParameter = null; // the getParameter of sketchGL's own kind (WebGL 1 or 2)
  const glProtos = [];
  if (typeof WebGLRenderingContext === "function") glProtos[glProtos.length] = WebGLRenderingContext.prototype;
  if (typeof WebGL2RenderingContext === "function") glProtos[glProtos.length] = WebGL2RenderingContext.prototype;
  const getParameterGL1 = typeof WebGLRenderingContext === "function" ? WebGLRenderingContext.prototype.getParameter : null;
  const getParameterGL2 = typeof WebGL2RenderingContext === "function" ? WebGL2RenderingContext.prototype.getParameter : null;
  const FRAMEBUFFER_BINDING = 0x8ca6; // FRAMEBUFFER_BINDING (1), DRAW_FRAMEBUFFER_BINDING (2)
  function paintsCanvas(gl) {
    try {
      return gl === sketchGL && apply(sketchGetParameter, gl, [FRAMEBUFFER_BINDING]) === null;
    } catch (_) {
      return false;
    }
  }
  // A context method that changes pixels: counted as `prefix.name` when the sketch calls it.
  function wrapContext(target, name, prefix) {
    const desc = target ? getOwnPropertyDescriptor(target, name) : undefined;
    if (!desc || typeof desc.value !== "function") return;
    const original = desc.value;
    const key = prefix + "." + name;
    const draw = prefix === "webgl" && glDraws[name] === true;
    const wrapper = function () {
      const who = attribute(name, false, wrapper);
      if (counted(who)) {
        bump(key);
      } else if (draw && who === LIBRARY && brushOwned && paintsCanvas(this)) {
        bump(CONFIG.api.brushPaint);
      }
      return enter(ownerOf(who), false, original, this, arguments);
    };
    lockValue(target, name, wrapper, desc.enumerable);
    // p5.brush's own call at a place spelling `name`: what the branch above does for LIBRARY.
    routeAs(wrapper, name, original, false, draw);
  }
  for (let p = 0; p < glProtos.length; p++) {
    for (let i = 0; i < CONFIG.api.webglPaint.length; i++) wrapContext(glProtos[p], CONFIG.api.webglPaint[i], "webgl");
  }
  const protos2d = [];
  if (typeof CanvasRenderingContext2D === "function") protos2d[protos2d.length] = CanvasRenderingContext2D.prototype;
  if (typeof OffscreenCanvasRenderingContext2D === "function") protos2d[protos2d.length] = OffscreenCanvasRenderingContext2D.prototype;
  for (let p = 0; p < protos2d.length; p++) {
    for (let i = 0; i < CONFIG.api.context2dPaint.length; i++) wrapContext(protos2d[p], CONFIG.api.context2dPaint[i], "2d");
  }
  if (typeof ImageBitmapRenderingContext === "function") {
    for (let i = 0; i < CONFIG.api.bitmapPaint.length; i++) wrapContext(ImageBitmapRenderingContext.prototype, CONFIG.api.bitmapPaint[i], "bitmap");
  }
  // Extensions hand out objects of their own with draw calls (ANGLE_instanced_arrays,
  // WEBGL_multi_draw...): theirs are wrapped on the object as it is handed out.
  const extensionDone = new WeakSet();
  const weakHas = WeakSet.prototype.has;
  const weakAdd = WeakSet.prototype.add;
  for (let p = 0; p < glProtos.length; p++) {
    const desc = getOwnPropertyDescriptor(glProtos[p], "getExtension");
    if (!desc || typeof desc.value !== "function") continue;
    const original = desc.value;
    lockValue(glProtos[p], "getExtension", function () {
      const ext = apply(original, this, arguments);
      if (ext !== null && typeof ext === "object" && !apply(weakHas, extensionDone, [ext])) {
        apply(weakAdd, extensionDone, [ext]);
        const proto = getPrototypeOf(ext);
        for (let i = 0; i < CONFIG.api.webglExtensionDraws.length; i++) {
          wrapContext(proto, CONFIG.api.webglExtensionDraws[i], "webgl");
        }
      }
      return ext;
    }, desc.enumerable);
  }

  function instrument(P) {
    const api = CONFIG.api;
    const protos = [P.prototype, P.Graphics ? P.Graphics.prototype : null];
    const renderers = [P.Renderer, P.Renderer2D, P.RendererGL, P.Renderer3D];
    for (let r = 0; r < renderers.length; r++) {
      // The renderers are p5's internals, reachable as _renderer: calls p5 makes to them are
      // p5's, a direct call from the sketch counts like the p5 one.
      const proto = typeof renderers[r] === "function" ? renderers[r].prototype : null;
      for (let i = 0; i < api.primitives.length; i++) wrapCall(proto, api.primitives[i], api.primitives[i], true, false);
    }
    for (let j = 0; j < protos.length; j++) {
      const proto = protos[j];
      for (let i = 0; i < api.primitives.length; i++) wrapCall(proto, api.primitives[i], api.primitives[i], true, false);
      for (let i = 0; i < api.rawCalls.length; i++) wrapCall(proto, api.rawCalls[i], api.rawCalls[i], true, false);
      for (let i = 0; i < api.neutral.length; i++) wrapCall(proto, api.neutral[i], null, false, true);
      wrapGetter(proto, "drawingContext", "drawingContext");
    }
    // p5.brush replaced push/pop (it flushes buffered strokes there): locked, not counted.
    for (let i = 0; i < api.libraryMethods.length; i++) lockLibrary(P.prototype, api.libraryMethods[i]);
    const brush = window.brush;
    if (brush !== null && typeof brush === "object") {
      for (let i = 0; i < api.brushDraw.length; i++) {
        wrapCall(brush, api.brushDraw[i], "brush." + api.brushDraw[i], false, false);
      }
      for (let i = 0; i < api.brushOther.length; i++) lockLibrary(brush, api.brushOther[i]);
      const classes = ["Plot", "Polygon"];
      for (let c = 0; c < classes.length; c++) {
        const cls = brush[classes[c]];
        const proto = typeof cls === "function" ? cls.prototype : null;
        for (let i = 0; i < api.brushObjectDraw.length; i++) {
          const m = api.brushObjectDraw[i];
          wrapCall(proto, m, "brush." + classes[c] + "." + m, false, false);
        }
      }
    }
  }

  // ---- sandbox: canvas size caps, dialogs, popups, document rewrites ------------------------
  function capDimension(desc, name) {
    defineProperty(canvasProto, name, {
      configurable: false,
      enumerable: desc.enumerable,
      get: desc.get,
      set(value) {
        const other = name === "width" ? apply(heightDesc.get, this, []) : apply(widthDesc.get, this, []);
        const v = Number(value) >>> 0;
        if (v > CONFIG.maxCanvasSide || v * other > CONFIG.maxCanvasPixels) {
          throw new RangeErrorCtor(
            "canvas " + name + " " + v + " exceeds the sandbox cap (" + CONFIG.maxCanvasSide +
            " px a side, " + CONFIG.maxCanvasPixels + " px in all)");
        }
        apply(desc.set, this, [value]);
      },
    });
  }
  capDimension(widthDesc, "width");
  capDimension(heightDesc, "height");

  // WebGL contexts are made without multisampling unless the renderer is configured otherwise.
  // While GPU compositing was on, MSAA made llvmpipe's rare edge variance more frequent (3 in 64
  // renders against 1 in 128); with compositing off (backends.py) both settings were stable,
  // and "off" is the one measured over 192 renders. preserveDrawingBuffer keeps the picture
  // readable after the frame that drew it.
  const glTypes = { webgl: true, webgl2: true, "experimental-webgl": true };
  function deterministicGetContext(type, attributes) {
    const who = attribute("getContext", false, deterministicGetContext);
    let context;
    if (glTypes[type] === true) {
      const attrs = assign({}, attributes || {});
      attrs.antialias = CONFIG.antialias;
      attrs.preserveDrawingBuffer = true;
      context = apply(getContext, this, [type, attrs]);
    } else {
      context = apply(getContext, this, [type, attributes]);
    }
    if (creatingCanvas && sketchCanvas === null && (who === NESTED || who === LIBRARY)) {
      // The first canvas p5's own createCanvas gives a context while it runs for the sketch's
      // instance is the one p5 draws the sketch into. A context the sketch asks for meanwhile
      // (from a valueOf of createCanvas's arguments) is its own, and counts.
      sketchCanvas = this;
      sketchGL = glTypes[type] === true ? context : null;
      sketchGetParameter = type === "webgl2" ? getParameterGL2 : getParameterGL1;
    } else if (who === DIRECT) {
      // A context is a handle: what paints through it is counted on its methods. Only the
      // sketch's own request counts, not one p5 makes for it (textFont measures glyphs on a
      // 2D canvas of its own; counted before, it refused a sketch that only set a font).
      bump("getContext");
    }
    return context;
  }

  function lock(target, name, value) {
    try {
      defineProperty(target, name, { value, writable: false, configurable: false });
    } catch (_) {
      // Already locked (a second document in this context): keep the first lock.
    }
  }
  // alert/confirm/prompt block the page's only thread; answer them without a dialog.
  lock(canvasProto, "getContext", deterministicGetContext);
  if (offscreenProto !== null) {
    lock(offscreenProto, "getContext", function getContext() {
      if (attribute("getContext", false, getContext) === DIRECT) bump("getContext");
      return apply(offscreenGetContext, this, arguments);
    });
  }
  lock(window, "alert", function alert() {});
  lock(window, "confirm", function confirm() { return false; });
  lock(window, "prompt", function prompt() { return null; });
  lock(window, "open", function open() { return null; });
  // document.open (and document.write after load, which implies it) removes every event
  // listener on the window, including the error listeners above: refuse it outright.
  const refuse = (what) => function () {
    throw new ErrorCtor(what + " is disabled in the sketch sandbox");
  };
  lock(Document.prototype, "write", refuse("document.write"));
  lock(Document.prototype, "writeln", refuse("document.writeln"));
  lock(Document.prototype, "open", refuse("document.open"));

  // Every render runs on an origin of its own (host.py), which gives it empty storage; cookies
  // alone can be scoped to the parent domain and would reach the next render's origin. Each
  // document gets a private, in-memory jar instead: a sketch can set and read its cookies, and
  // they die with its frame.
  const cookieJar = new Map();
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  const mapForEach = Map.prototype.forEach;
  defineProperty(Document.prototype, "cookie", {
    configurable: false,
    enumerable: true,
    get() {
      const parts = [];
      apply(mapForEach, cookieJar, [(value, name) => apply(push, parts, [name + "=" + value])]);
      return parts.join("; ");
    },
    set(value) {
      const text = StringCtor(value);
      const fields = text.split(";");
      const pair = fields[0];
      const eq = pair.indexOf("=");
      const name = (eq < 0 ? "" : pair.slice(0, eq)).trim();
      const val = (eq < 0 ? pair : pair.slice(eq + 1)).trim();
      const expired = fields.slice(1).some((f) => {
        const [key, arg] = f.split("=").map((x) => x.trim().toLowerCase());
        return (key === "max-age" && Number(arg) <= 0) ||
          (key === "expires" && apply(RealDate.parse, RealDate, [arg]) <= CLOCK.epochMs + clockNow);
      });
      if (expired) {
        apply(mapDelete, cookieJar, [name]);
      } else {
        apply(mapSet, cookieJar, [name, val]);
      }
    },
  });

  // ---- the p5 addon: readiness signals straight from p5's lifecycle -------------------------
  // The genuine instance is the one the harness constructs in run(); hooks ignore any other
  // `this` (a sketch can reach the hook functions through p5.lifecycleHooks).
  let genuine = null;
  function isGenuine(inst) {
    if (instance !== null) return inst === instance;
    return inst !== null && (inst === genuine || (constructing && genuine === null));
  }

  function violation(text) {
    state.violation = true;
    recordError("harness: " + text);
  }

  // Runs p5's createCanvas/setAttributes for the sketch's instance and records the canvas p5
  // gives a context to while it runs (setAttributes on WEBGL makes a new canvas).
  function canvasMaker(name, original, isCreate, fixArgs) {
    const wrapper = function () {
      const who = attribute(name, false, wrapper);
      const mine = instance !== null && this === instance;
      if (isCreate) {
        if (state.defaultCanvasPending) {
          state.defaultCanvasPending = false;
        } else if (mine) {
          state.userCanvas = true;
        }
      }
      const before = sketchCanvas;
      const beforeGL = sketchGL;
      const beforeGetParameter = sketchGetParameter;
      const wasCreating = creatingCanvas;
      if (mine) {
        sketchCanvas = null;
        creatingCanvas = true;
      }
      try {
        return enter(ownerOf(who), true, original, this, fixArgs ? fixArgs(arguments) : arguments);
      } finally {
        if (mine) {
          creatingCanvas = wasCreating;
          if (sketchCanvas === null) {
            sketchCanvas = before;
            sketchGL = beforeGL;
            sketchGetParameter = beforeGetParameter;
          }
        }
      }
    };
    return wrapper;
  }

  function addon(p5, fn, lifecycles) {
    p5Class = p5;
    // p5's frames are told apart by the SHA-256 of p5.min.js (1 MB), which V8 computes at the
    // first request in each frame and then keeps: 8 ms of the sketch's first p5 call on the
    // loaded 2-core VM, asked for here instead, while the frame is prepared (p5 is the caller).
    try {
      const frames = stackNow(1, addon);
      if (frames.length > 0) apply(siteHash, frames[0], []);
    } catch (_) {
      // No stack to read: the first attribution pays instead.
    }
    // p5 makes a default 100x100 2D canvas right after presetup; any later createCanvas call is
    // the sketch's own. Knowing which lets the harness say "use WEBGL" only when it applies.
    // Multisampling stays off for the canvas and p5's framebuffers (see deterministicGetContext).
    lockValue(fn, "setAttributes", canvasMaker("setAttributes", fn.setAttributes, false, (args) => {
      const key = args[0];
      if (key !== null && typeof key === "object") {
        const attrs = assign({}, key);
        if ("antialias" in attrs) attrs.antialias = CONFIG.antialias;
        return [attrs];
      }
      return [key, key === "antialias" ? CONFIG.antialias : args[1]];
    }), true);
    lockValue(fn, "createCanvas", canvasMaker("createCanvas", fn.createCanvas, true, null), true);
    lifecycles.presetup = function () {
      if (!isGenuine(this) || state.phase === "done") return;
      instance = this;
      state.started = true;
      state.defaultCanvasPending = true;
      state.phase = "running";
      // Reseed p5's random()/noise() and, through p5.brush's wrappers, brush's own PRNGs.
      reseed(state.seed);
      this.randomSeed(state.seed);
      this.noiseSeed(state.seed);
    };
    lifecycles.postsetup = function () {
      if (!isGenuine(this) || state.phase === "done") return;
      state.setupDone = true;
      const ctx = this._isGlobal ? window : this;
      if (typeof ctx.draw !== "function") {
        capture();
        finish("complete");
      }
    };
    lifecycles.postdraw = function () {
      if (!isGenuine(this) || state.phase === "done" || !state.setupDone) return;
      state.frames += 1;
      // p5.brush registered first, so its postdraw flush has already put the strokes on the
      // canvas: this is the moment the frame is complete.
      if (!this.isLooping()) {
        capture();
        finish("complete");
      } else if (state.frames >= CONFIG.maxFrames) {
        this.noLoop();
        capture();
        finish("frame_cap");
      }
    };
  }

  function attach() {
    if (typeof window.p5 !== "function" || typeof window.p5.registerAddon !== "function") {
      recordError("harness: p5 did not load");
      return;
    }
    // Before the harness's own addon, so its hooks are not taken for library code.
    instrument(window.p5);
    window.p5.registerAddon(addon);
    // Ready only once the load event has been handled: p5 does start-up work on it, and work
    // that lands before or after run() reseeds Math.random would make pictures depend on timing.
    const markReady = () => {
      if (state.phase === "loading") state.phase = "ready";
    };
    if (document.readyState === "complete") {
      markReady();
    } else {
      addEventListener.call(window, "load", () => setTimeoutFn(markReady, 0));
    }
  }

  function checkStarted() {
    if (!state.started && (state.phase === "running" || state.phase === "ready")) {
      finish("no_p5");
    }
  }

  function run(seed, token) {
    if (state.ran || state.phase !== "ready" || typeof token !== "string") return false;
    state.ran = true;
    state.token = token;
    state.seed = seed >>> 0;
    reseed(state.seed);
    resetClock();
    send("start", "");
    const script = apply(createElement, document, ["script"]);
    script.src = CONFIG.sketchUrl;
    script.onload = () => {
      state.sketchLoaded = true;
      // p5 has this long to run presetup; a sketch without setup/draw never starts it.
      setTimeoutFn(checkStarted, CONFIG.startGraceMs);
      if (state.phase === "done" || instance !== null) return;
      // Global mode (docs/design.md §3.4) keys on window.setup / window.draw. p5's own start-up
      // check ran at page load, before the sketch existed, so start it here the same way.
      const P = p5Class;
      const hasEntry = typeof window.setup === "function" || typeof window.draw === "function";
      if (P && hasEntry && !P.instance) {
        constructing = true;
        try {
          const made = new P();
          if (instance !== null && instance !== made) {
            violation("the sketch ran p5's lifecycle hooks on an object of its own");
          }
          genuine = made;
        } catch (err) {
          recordError(describe(err));
        } finally {
          constructing = false;
        }
      }
    };
    script.onerror = () => recordError("harness: the sketch script could not be loaded");
    apply(appendChild, document.head || document.documentElement, [script]);
    return true;
  }

  // The phase, for preparing a frame (before any sketch exists in it).
  function poll() {
    return { phase: state.phase };
  }

  // Reports whatever is on the canvas now (when the deadline passes on a page that still
  // answers), through the channel like every other result.
  function captureNow() {
    if (state.image === null) capture();
    report("salvage");
  }

  defineProperty(window, "__sketchenv", {
    value: freeze({ attach, run, poll, captureNow, tally, libraryCalls }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
