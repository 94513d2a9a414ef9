// sketch_env page harness. Installed with Playwright's add_init_script, so it runs in every new
// document before any library or sketch code (DESIGN.md §3). Python fills the __CONFIG__
// placeholder with a JSON object; nothing else is templated.
//
// Everything the harness needs later (toDataURL, Reflect.apply, the PRNG state, the error log)
// is captured here, in a closure the sketch cannot reach: a sketch may replace any global it
// likes and the harness keeps reading the real canvas and reporting the real state.
(() => {
  "use strict";
  const CONFIG = __CONFIG__;

  // ---- primitives captured before any other script runs ------------------------------------
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const now = performance.now.bind(performance);
  const canvasProto = HTMLCanvasElement.prototype;
  const toDataURL = canvasProto.toDataURL;
  const getContext = canvasProto.getContext;
  const widthDesc = getOwnPropertyDescriptor(canvasProto, "width");
  const heightDesc = getOwnPropertyDescriptor(canvasProto, "height");
  const createElement = Document.prototype.createElement;
  const appendChild = Node.prototype.appendChild;
  const addEventListener = EventTarget.prototype.addEventListener;
  const push = Array.prototype.push;
  const StringCtor = String;
  const ErrorCtor = Error;
  const RangeErrorCtor = RangeError;
  const imul = Math.imul;
  const setTimeoutFn = setTimeout.bind(window);

  // ---- seeded Math.random -------------------------------------------------------------------
  // xoshiro128** seeded through splitmix32. p5.brush draws its own PRNG seeds from Math.random
  // while its file is evaluated, so this must exist before p5.brush loads. Libraries load under
  // a fixed seed; run(seed) reseeds before the sketch runs, so a picture depends only on
  // (sketch, seed), whether or not its page was prepared in advance.
  const rngState = new Uint32Array(4);
  function reseed(seed) {
    let x = (seed >>> 0) ^ 0x9e3779b9;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      rngState[i] = (z ^ (z >>> 16)) >>> 0;
    }
    if ((rngState[0] | rngState[1] | rngState[2] | rngState[3]) === 0) rngState[0] = 1;
  }
  function nextRandom() {
    const s = rngState;
    const r = imul(s[1], 5) >>> 0;
    const result = imul(((r << 7) | (r >>> 25)) >>> 0, 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ((s[3] << 11) | (s[3] >>> 21)) >>> 0;
    return result / 4294967296;
  }
  reseed(CONFIG.librarySeed);
  Math.random = function random() {
    return nextRandom();
  };

  // ---- harness state ------------------------------------------------------------------------
  const state = {
    phase: "loading", // loading -> ready -> running -> done
    doneReason: null, // complete | frame_cap | error | no_p5
    errors: [],
    frames: 0,
    setupDone: false,
    started: false,
    sketchLoaded: false,
    sketchLoadedAt: 0,
    image: null,
    canvasKind: null,
    userCanvas: false,
    defaultCanvasPending: false,
    width: 0,
    height: 0,
    ran: false,
  };
  let instance = null;
  let p5Class = null;

  function describe(err) {
    if (err === null || err === undefined) return StringCtor(err);
    let text;
    try {
      const name = err.name || "Error";
      text = err.message !== undefined ? name + ": " + err.message : StringCtor(err);
    } catch (_) {
      text = "unprintable error";
    }
    try {
      const stack = StringCtor(err.stack || "");
      const match = /sketch\.js:(\d+):(\d+)/.exec(stack);
      if (match) text += " (sketch.js:" + match[1] + ":" + match[2] + ")";
    } catch (_) {
      // A hostile error object may throw from its getters; the message is enough.
    }
    return text;
  }

  function recordError(text) {
    if (state.errors.length < CONFIG.maxErrors) {
      apply(push, state.errors, [StringCtor(text).slice(0, CONFIG.maxErrorChars)]);
    }
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
    if (event && event.error !== undefined && event.error !== null) {
      recordError(describe(event.error));
    } else if (event && event.message) {
      let text = StringCtor(event.message);
      if (event.filename && /sketch\.js$/.test(event.filename)) {
        text += " (sketch.js:" + event.lineno + ":" + event.colno + ")";
      }
      recordError(text);
    }
  }, true);
  // p5 2.x runs setup and draw inside promises: their errors arrive here (DESIGN.md §3.3).
  addEventListener.call(window, "unhandledrejection", (event) => {
    recordError(describe(event.reason));
  }, true);

  function finish(reason) {
    if (state.phase === "done") return;
    state.phase = "done";
    state.doneReason = reason;
  }

  function canvasOf(inst) {
    try {
      const c = inst.canvas || (inst._renderer && inst._renderer.canvas);
      return c instanceof HTMLCanvasElement ? c : null;
    } catch (_) {
      return null;
    }
  }

  // Reads the real canvas through the toDataURL captured above, so a sketch that replaces
  // HTMLCanvasElement.prototype.toDataURL cannot hand back a picture of its choosing.
  function capture() {
    if (!instance) return;
    const canvas = canvasOf(instance);
    if (!canvas) return;
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
      apply(push, state.errors, ["harness: could not read the canvas: " + describe(err)]);
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
    if (glTypes[type] === true) {
      const attrs = Object.assign({}, attributes || {});
      attrs.antialias = CONFIG.antialias;
      attrs.preserveDrawingBuffer = true;
      return apply(getContext, this, [type, attrs]);
    }
    return apply(getContext, this, [type, attributes]);
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
          (key === "expires" && Date.parse(arg) <= Date.now());
      });
      if (expired) {
        apply(mapDelete, cookieJar, [name]);
      } else {
        apply(mapSet, cookieJar, [name, val]);
      }
    },
  });

  // ---- the p5 addon: readiness signals straight from p5's lifecycle -------------------------
  function isGenuine(inst) {
    return p5Class !== null && inst instanceof p5Class && (instance === null || inst === instance);
  }

  function addon(p5, fn, lifecycles) {
    p5Class = p5;
    // p5 makes a default 100x100 2D canvas right after presetup; any later createCanvas call is
    // the sketch's own. Knowing which lets the harness say "use WEBGL" only when it applies.
    // Multisampling stays off for the canvas and p5's framebuffers (see deterministicGetContext).
    const setAttributes = fn.setAttributes;
    fn.setAttributes = function (key, value) {
      if (key !== null && typeof key === "object") {
        const attrs = Object.assign({}, key);
        if ("antialias" in attrs) attrs.antialias = CONFIG.antialias;
        return apply(setAttributes, this, [attrs]);
      }
      return apply(setAttributes, this, [key, key === "antialias" ? CONFIG.antialias : value]);
    };
    const createCanvas = fn.createCanvas;
    fn.createCanvas = function (...args) {
      if (state.defaultCanvasPending) {
        state.defaultCanvasPending = false;
      } else if (this === instance) {
        state.userCanvas = true;
      }
      return apply(createCanvas, this, args);
    };
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

  function run(seed) {
    if (state.ran || state.phase !== "ready") return false;
    state.ran = true;
    state.seed = seed >>> 0;
    reseed(state.seed);
    const script = apply(createElement, document, ["script"]);
    script.src = CONFIG.sketchUrl;
    script.onload = () => {
      state.sketchLoaded = true;
      state.sketchLoadedAt = now();
      if (state.phase === "done" || instance !== null) return;
      // Global mode (DESIGN.md §3.4) keys on window.setup / window.draw. p5's own start-up
      // check ran at page load, before the sketch existed, so start it here the same way.
      const P = p5Class;
      const hasEntry = typeof window.setup === "function" || typeof window.draw === "function";
      if (P && hasEntry && !P.instance) {
        try {
          new P();
        } catch (err) {
          recordError(describe(err));
        }
      }
    };
    script.onerror = () => recordError("harness: the sketch script could not be loaded");
    apply(appendChild, document.head || document.documentElement, [script]);
    return true;
  }

  function poll() {
    if (state.phase === "running" || state.phase === "ready") {
      if (state.sketchLoaded && !state.started && now() - state.sketchLoadedAt > CONFIG.startGraceMs) {
        finish("no_p5");
      }
    }
    return {
      phase: state.phase,
      doneReason: state.doneReason,
      errors: state.errors.slice(),
      frames: state.frames,
      setupDone: state.setupDone,
      started: state.started,
      hasImage: state.image !== null,
      canvasKind: state.canvasKind,
      userCanvas: state.userCanvas,
      width: state.width,
      height: state.height,
    };
  }

  // Capture whatever is on the canvas now (used when the deadline passes on a live page).
  function captureNow() {
    if (state.image === null) capture();
    return state.image;
  }

  function image() {
    return state.image;
  }

  defineProperty(window, "__sketchenv", {
    value: freeze({ attach, run, poll, image, captureNow }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
