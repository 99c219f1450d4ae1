// The shelf check's phone page: the rear camera reads the boxes' QR labels one
// after another (the browser's BarcodeDetector where it reads QR codes, else
// jsQR, served from node_modules), each code is sent to the server, and the
// answer ("D5 ✓", "Appartient à C2", "Étiquette inconnue") is shown big,
// announced in the live region and felt (vibration). A box number or a title
// typed by hand does the same for a label the camera cannot read. Without this
// script the page is a plain form that records what is typed.
(function () {
  "use strict";
  var root = document.querySelector("[data-shelf-scanner]");
  if (!root) return;
  var form = root.querySelector("[data-scan-form]");
  var shelfInput = root.querySelector("[data-shelf]");
  var manual = root.querySelector("[data-manual]");
  var verdict = root.querySelector("[data-verdict]");
  var main = root.querySelector("[data-verdict-main]");
  var detail = root.querySelector("[data-verdict-detail]");
  var tallyLine = root.querySelector("[data-tally]");
  var cameraButton = root.querySelector("[data-camera]");
  var cameraState = root.querySelector("[data-camera-state]");
  var video = root.querySelector("[data-video]");
  var picks = root.querySelector("[data-picks]");
  var recent = root.querySelector("[data-recent]");
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var text = root.dataset;
  var storeKey = "shelfcheck-" + text.check + "-shelf";

  var stream = null;
  var decode = null; // async (video) -> string | null
  var busy = false;
  var last = { code: "", at: 0 };
  var SAME_CODE_PAUSE = 3000; // ms: a label held in front of the camera is one scan
  var FRAME_EVERY = 150; // ms between two looks at the camera
  var canvas = document.createElement("canvas");
  var context = canvas.getContext("2d", { willReadFrequently: true });

  // -- the shelf the host stands at, kept between scans and reloads ------------------------
  function shelf() {
    return shelfInput.value.trim().toUpperCase().replace(/#$/, "");
  }
  if (!shelfInput.value) {
    try { shelfInput.value = sessionStorage.getItem(storeKey) || ""; } catch (e) { /* private mode */ }
  }
  shelfInput.addEventListener("change", function () {
    shelfInput.value = shelf();
    try { sessionStorage.setItem(storeKey, shelfInput.value); } catch (e) { /* private mode */ }
    refreshTally();
  });
  shelfInput.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { event.preventDefault(); shelfInput.blur(); manual.focus(); }
  });

  function showTally(tally) {
    if (!tally || tally.expected === undefined) return;
    tallyLine.textContent = text.tallyText.replace("{seen}", tally.seen).replace("{expected}", tally.expected)
      .replace("{shelf}", tally.shelf);
  }

  function refreshTally() {
    if (!shelf()) { tallyLine.textContent = ""; return; }
    fetch(text.tallyUrl + "?rayon=" + encodeURIComponent(shelf()), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (answer.ok) showTally(answer.body);
        else say("error", answer.body.error || "", "");
      })
      .catch(function () { /* the next scan brings the tally */ });
  }
  if (shelf() && !tallyLine.textContent.trim()) refreshTally();

  // -- the answer -------------------------------------------------------------------------
  function say(kind, big, small) {
    verdict.className = "verdict " + kind;
    // Emptied first: a screen reader announces the same verdict twice in a row too.
    main.textContent = "";
    detail.textContent = "";
    window.setTimeout(function () {
      main.textContent = big;
      detail.textContent = small;
    }, 30);
  }

  function buzz(kind) {
    if (!navigator.vibrate) return;
    try { navigator.vibrate(kind === "ok" ? 60 : [120, 80, 120]); } catch (e) { /* not allowed */ }
  }

  function remember(answer) {
    var item = document.createElement("li");
    var mark = document.createElement("span");
    mark.className = answer.kind;
    mark.textContent = answer.message;
    item.appendChild(mark);
    item.appendChild(document.createTextNode(" · " + (answer.title || answer.note) + " (" + answer.shelf + ")"));
    recent.insertBefore(item, recent.firstChild);
    while (recent.children.length > 12) recent.removeChild(recent.lastChild);
  }

  // typed: the host typed it (a box number will do); false for what the camera read.
  function send(code, typed) {
    if (!shelf()) {
      say("error", text.sayShelf, "");
      buzz("error");
      shelfInput.focus();
      return Promise.resolve(null);
    }
    busy = true;
    return fetch(text.scanUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ text: code, shelf: shelf(), typed: typed }),
      credentials: "same-origin",
    })
      .then(function (r) {
        if (r.status === 429) return { kind: "error", message: text.tooFast, note: "" };
        if (r.redirected) return { kind: "error", message: text.loggedOut, note: "" }; // to the login page
        return r.json().then(function (body) {
          return r.ok ? body : { kind: "error", message: body.error || text.offline, note: "" };
        });
      })
      .catch(function () { return { kind: "error", message: text.offline, note: "" }; })
      .then(function (answer) {
        busy = false;
        var small = answer.title || answer.note || "";
        if (answer.title && answer.note) small = answer.title + " — " + answer.note;
        if (answer.again) small += " (" + text.againText + ")";
        say(answer.kind, answer.message, small);
        buzz(answer.kind);
        if (answer.kind !== "error") remember(answer);
        showTally(answer.tally);
        return answer;
      });
  }

  // -- typed by hand: a box number or a label's address, else a title to pick from ------------
  function looksLikeLabel(value) {
    return /^(n°|no\.?|#)?\s*[0-9]{1,9}$/i.test(value) || /^https?:\/\//i.test(value);
  }

  function clearPicks() {
    picks.textContent = "";
    picks.hidden = true;
  }

  function offer(boxes) {
    clearPicks();
    if (!boxes.length) { say("error", text.noneFound, ""); return; }
    var heading = document.createElement("li");
    heading.textContent = text.pickText;
    picks.appendChild(heading);
    boxes.forEach(function (box) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = box.title + " — " + box.shelf + " (" + box.copy + ")";
      button.addEventListener("click", function () {
        clearPicks();
        manual.value = "";
        send(String(box.copy), true);
      });
      item.appendChild(button);
      picks.appendChild(item);
    });
    picks.hidden = false;
    picks.querySelector("button").focus();
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var value = manual.value.trim();
    if (!value) { manual.focus(); return; }
    if (looksLikeLabel(value)) {
      send(value, true).then(function (answer) { if (answer && answer.kind !== "error") manual.value = ""; });
      return;
    }
    fetch(text.findUrl + "?q=" + encodeURIComponent(value), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (body) { offer(body.boxes || []); })
      .catch(function () { say("error", text.offline, ""); });
  });

  // -- the camera -------------------------------------------------------------------------
  function jsqrDecoder() {
    root.dataset.decoder = "jsQR";
    return function (source) {
      var width = source.videoWidth;
      var height = source.videoHeight;
      if (!width || !height) return Promise.resolve(null);
      var scale = Math.min(1, 800 / Math.max(width, height)); // enough pixels for a label, fast
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      context.drawImage(source, 0, 0, canvas.width, canvas.height);
      var image = context.getImageData(0, 0, canvas.width, canvas.height);
      var found = window.jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
      return Promise.resolve(found && found.data ? found.data : null);
    };
  }

  function makeDecoder() {
    if ("BarcodeDetector" in window) {
      return window.BarcodeDetector.getSupportedFormats()
        .then(function (formats) {
          if (formats.indexOf("qr_code") < 0) throw new Error("no QR codes");
          var detector = new window.BarcodeDetector({ formats: ["qr_code"] });
          root.dataset.decoder = "BarcodeDetector";
          return function (source) {
            return detector.detect(source).then(function (codes) { return codes.length ? codes[0].rawValue : null; });
          };
        })
        .catch(function () { return window.jsQR ? jsqrDecoder() : null; });
    }
    return Promise.resolve(window.jsQR ? jsqrDecoder() : null);
  }

  function look() {
    if (!stream) return;
    if (busy || video.readyState < 2) { window.setTimeout(look, FRAME_EVERY); return; }
    decode(video)
      .then(function (code) {
        var now = Date.now();
        if (code && !(code === last.code && now - last.at < SAME_CODE_PAUSE)) {
          last = { code: code, at: now };
          return send(code, false);
        }
        if (code) last.at = now; // still in front of the camera
        return null;
      })
      .catch(function () { return null; })
      .then(function () { window.setTimeout(look, FRAME_EVERY); });
  }

  function stopCamera() {
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    video.hidden = true;
    video.srcObject = null;
    cameraButton.textContent = text.startText;
    cameraButton.setAttribute("aria-pressed", "false");
    cameraState.textContent = text.cameraOff;
  }

  function startCamera() {
    makeDecoder().then(function (decoder) {
      if (!decoder) { cameraState.textContent = text.noDecoder; return null; }
      decode = decoder;
      return navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false })
        .then(function (media) {
          stream = media;
          video.srcObject = media;
          video.hidden = false;
          cameraButton.textContent = text.stopText;
          cameraButton.setAttribute("aria-pressed", "true");
          cameraState.textContent = text.cameraOn;
          return video.play().catch(function () { /* muted inline video plays; a refusal still shows frames */ });
        })
        .then(function () { if (stream) look(); })
        .catch(function (error) {
          cameraState.textContent = error && error.name === "NotAllowedError" ? text.cameraDenied : text.noCamera;
        });
    });
  }

  if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    cameraButton.hidden = false;
    cameraButton.setAttribute("aria-pressed", "false");
    cameraButton.addEventListener("click", function () {
      if (stream) stopCamera(); else startCamera();
    });
  } else {
    cameraState.textContent = text.noCamera;
  }
  window.addEventListener("pagehide", stopCamera);
})();
