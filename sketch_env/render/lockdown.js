// sketch_env lockdown. Installed with Playwright's add_init_script next to the harness, so it
// runs in every new document of a host page before any library or sketch code. Python fills the
// __LOCKDOWN__ placeholder with a JSON object; nothing else is templated.
//
// It removes what the browser's own walls stop but do not report, and caps what the harness's
// canvas caps do not see:
//  * WebRTC. Chromium runs with --webrtc-ip-handling-policy=disable_non_proxied_udp, which is
//    what stops the packets (measured: 8 STUN/TURN datagrams reached a loopback listener
//    without it, 0 with it); the constructors are replaced here so that an attempt fails at
//    once and is reported to request routing as `webrtc: <name>`.
//  * OffscreenCanvas. Its size is not an HTMLCanvasElement's, so the harness's setters never see
//    it: an 8192x8192 one passed every cap. The same limits apply to it here.
//  * Playwright's own binding. Every document gets `__playwright__binding__`, the page end of the
//    channel Playwright's injected scripts (WebSocket routing among them) use to call into the
//    driver, and the driver parses its payload outside any error handler: measured with
//    Playwright 1.5x, one call `__playwright__binding__('garbage')` from a sketch killed the
//    Node driver, so the whole pool died and the render ended `crashed` (an infrastructure
//    `None`: a way to escape every penalty). The binding is wrapped here, before any sketch
//    code, so that only a well-formed payload (what Playwright's own controller sends) reaches
//    the driver; anything else throws in the page, where it is the sketch's own error.
(() => {
  "use strict";
  const LIMITS = __LOCKDOWN__;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const RangeErrorCtor = RangeError;
  const StringCtor = String;
  const encode = encodeURIComponent;
  const fetchFn = typeof fetch === "function" ? fetch.bind(window) : null;

  function report(what) {
    if (fetchFn === null) return;
    try {
      const url = LIMITS.reportUrl + "?what=" + encode(StringCtor(what).slice(0, 100));
      fetchFn(url, { mode: "no-cors", cache: "no-store" }).catch(() => {});
    } catch (_) {
      // Reporting is best effort; the browser switch still stops every packet.
    }
  }

  // ---- WebRTC -------------------------------------------------------------------------------
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "mozRTCPeerConnection"]) {
    const blocked = function () {
      report("webrtc: " + name);
      throw new DOMException("WebRTC is disabled in the sketch sandbox", "NotSupportedError");
    };
    try {
      defineProperty(window, name, {
        value: blocked,
        writable: false,
        configurable: false,
        enumerable: false,
      });
    } catch (_) {
      // Already non-configurable in this realm: nothing else to do.
    }
  }

  // ---- Playwright's binding ------------------------------------------------------------------
  const BINDING = "__playwright__binding__";
  const rawBinding = window[BINDING];
  if (typeof rawBinding === "function") {
    const parse = JSON.parse;
    const isArray = Array.isArray;
    const TypeErrorCtor = TypeError;
    // Inside a sketch's document Playwright only carries WebSocket routing over it, which the
    // sandbox refuses at once: a few calls. The caps keep a flood from the driver, which every
    // render of this browser shares.
    let calls = 0;
    const guarded = function (payload) {
      let message = null;
      calls += 1;
      if (calls <= 1000 && typeof payload === "string" && payload.length <= 65536) {
        try {
          message = parse(payload);
        } catch (_) {
          message = null;
        }
      }
      if (
        message === null ||
        typeof message !== "object" ||
        typeof message.name !== "string" ||
        typeof message.seq !== "number" ||
        !isArray(message.serializedArgs)
      ) {
        throw new TypeErrorCtor("not a Playwright binding call");
      }
      return apply(rawBinding, window, [payload]);
    };
    try {
      defineProperty(window, BINDING, {
        value: guarded,
        writable: false,
        configurable: false,
        enumerable: false,
      });
    } catch (_) {
      // Not configurable in this realm: the gate still refuses the name.
    }
  }

  // ---- OffscreenCanvas size -----------------------------------------------------------------
  function check(width, height) {
    const w = +width;
    const h = +height;
    if (w > LIMITS.maxCanvasSide || h > LIMITS.maxCanvasSide || w * h > LIMITS.maxCanvasPixels) {
      report("offscreen-canvas: " + w + "x" + h);
      throw new RangeErrorCtor(
        "OffscreenCanvas " + w + "x" + h + " exceeds the sandbox's canvas limits (" +
          LIMITS.maxCanvasSide + " px a side, " + LIMITS.maxCanvasPixels + " px in all)"
      );
    }
  }
  if (typeof OffscreenCanvas === "function") {
    const Original = OffscreenCanvas;
    const proto = Original.prototype;
    const widthDesc = getOwnPropertyDescriptor(proto, "width");
    const heightDesc = getOwnPropertyDescriptor(proto, "height");
    if (widthDesc && heightDesc && widthDesc.set && heightDesc.set) {
      defineProperty(proto, "width", {
        get: widthDesc.get,
        set(value) {
          check(value, apply(heightDesc.get, this, []));
          apply(widthDesc.set, this, [value]);
        },
        configurable: false,
        enumerable: widthDesc.enumerable,
      });
      defineProperty(proto, "height", {
        get: heightDesc.get,
        set(value) {
          check(apply(widthDesc.get, this, []), value);
          apply(heightDesc.set, this, [value]);
        },
        configurable: false,
        enumerable: heightDesc.enumerable,
      });
    }
    const Capped = function OffscreenCanvas(width, height) {
      if (new.target === undefined) {
        throw new TypeError("Failed to construct 'OffscreenCanvas': use 'new'");
      }
      check(width, height);
      return construct(Original, [width, height], new.target);
    };
    Capped.prototype = proto;
    defineProperty(proto, "constructor", { value: Capped, configurable: false, writable: false });
    defineProperty(window, "OffscreenCanvas", {
      value: Capped,
      writable: false,
      configurable: false,
      enumerable: false,
    });
  }
})();
