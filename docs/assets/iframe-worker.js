// Site search from disk. Opened as file://, a browser refuses to start the search worker
// (a Worker needs a served page), so there the worker's script runs in a hidden frame of
// the page instead, with the same two-way messages. Served over HTTP nothing changes.
// (The offline plugin of the theme looks for a polyfill with "iframe-worker" in its name:
// this one, kept with the site, replaces the one it would load from the network.)
"use strict";

(function () {
  if (location.protocol !== "file:") return;

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.waiting = []; // messages sent before the script ran
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.setAttribute("aria-hidden", "true");
      (document.body || document.documentElement).append(this.frame);
      const scope = this.frame.contentWindow;
      // The script's postMessage(...) answers this worker, as a worker's would.
      scope.postMessage = (data) => setTimeout(() => this.answer(data));
      const script = scope.document.createElement("script");
      script.src = new URL(url, document.baseURI).href;
      script.addEventListener("load", () => {
        const waiting = this.waiting;
        this.waiting = null;
        for (const data of waiting) this.deliver(data);
      });
      scope.document.head.append(script);
    }

    postMessage(data) {
      if (this.waiting) this.waiting.push(data);
      else this.deliver(data);
    }

    deliver(data) {
      const scope = this.frame.contentWindow;
      setTimeout(() => scope.dispatchEvent(new scope.MessageEvent("message", { data })));
    }

    answer(data) {
      const event = new MessageEvent("message", { data });
      if (this.onmessage) this.onmessage(event);
      this.dispatchEvent(event);
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
