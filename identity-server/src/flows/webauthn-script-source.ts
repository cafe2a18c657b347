// The browser half of WebAuthn and passkeys for UIs written for Kratos (Ory Elements, the Kratos
// self-service UI), served as /.well-known/ory/webauthn.js. Written for this server, not taken
// from Kratos: it defines the same global functions the nodes name (`onclickTrigger`,
// `onloadTrigger`, and the deprecated `onclick`/`onload`), reads the options from the nodes, asks
// `navigator.credentials`, puts the answer (the JSON @simplewebauthn/browser would produce) into
// the hidden input and submits the form. Our portal does not use it: it has its own module.
export const webAuthnScript = `/* WebAuthn and passkeys for Kratos-style forms (identity server). */
(function () {
  "use strict";
  if (typeof window === "undefined" || window.__oryWebAuthnInitialized) return;

  function toBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function toBase64url(buffer) {
    if (!buffer) return undefined;
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  }

  function input(name) {
    return document.getElementsByName(name)[0];
  }

  function readJson(name) {
    var el = input(name);
    if (!el || !el.value) throw new Error("the form has no " + name);
    return JSON.parse(el.value);
  }

  // Options arrive as JSON (base64url strings); the browser wants bytes.
  function withIds(list) {
    return (list || []).map(function (c) {
      return { type: c.type || "public-key", id: toBytes(c.id), transports: c.transports };
    });
  }

  function requestOptions(publicKey) {
    var o = Object.assign({}, publicKey);
    o.challenge = toBytes(publicKey.challenge);
    o.allowCredentials = withIds(publicKey.allowCredentials);
    return o;
  }

  function creationOptions(publicKey) {
    var o = Object.assign({}, publicKey);
    o.challenge = toBytes(publicKey.challenge);
    o.user = Object.assign({}, publicKey.user, { id: toBytes(publicKey.user.id) });
    o.excludeCredentials = withIds(publicKey.excludeCredentials);
    return o;
  }

  function common(credential) {
    return {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      clientExtensionResults: credential.getClientExtensionResults
        ? credential.getClientExtensionResults()
        : {},
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
    };
  }

  function assertionJson(credential) {
    var r = credential.response;
    var json = common(credential);
    json.response = {
      clientDataJSON: toBase64url(r.clientDataJSON),
      authenticatorData: toBase64url(r.authenticatorData),
      signature: toBase64url(r.signature),
      userHandle: toBase64url(r.userHandle),
    };
    return JSON.stringify(json);
  }

  function attestationJson(credential) {
    var r = credential.response;
    var json = common(credential);
    json.response = {
      clientDataJSON: toBase64url(r.clientDataJSON),
      attestationObject: toBase64url(r.attestationObject),
      transports: r.getTransports ? r.getTransports() : undefined,
    };
    return JSON.stringify(json);
  }

  // Puts the answer into the hidden input and submits its form; \`method\` names the strategy
  // for forms whose submit buttons (which form.submit() does not send) carry it.
  function submit(resultName, value, method) {
    var el = input(resultName);
    el.value = value;
    var form = el.form || el.closest("form");
    if (method) {
      var m = form.querySelector('input[type="hidden"][name="method"]');
      if (!m) {
        m = document.createElement("input");
        m.type = "hidden";
        m.name = "method";
        form.appendChild(m);
      }
      m.value = method;
    }
    form.submit();
  }

  function report(error) {
    // A cancelled prompt is not an error worth an alert.
    if (error && error.name === "AbortError") return;
    if (error && error.name === "NotAllowedError") return;
    console.error(error);
  }

  // The pending passkey autofill request, cancelled before a modal one starts.
  var autofill;

  function cancelAutofill() {
    if (autofill) autofill.abort();
    autofill = undefined;
  }

  function webAuthnLogin(options) {
    var opt = options || readJson("webauthn_login_trigger");
    return navigator.credentials
      .get({ publicKey: requestOptions(opt.publicKey) })
      .then(function (credential) {
        submit("webauthn_login", assertionJson(credential), "webauthn");
      })
      .catch(report);
  }

  function webAuthnRegistration(options) {
    var opt = options || readJson("webauthn_register_trigger");
    return navigator.credentials
      .create({ publicKey: creationOptions(opt.publicKey) })
      .then(function (credential) {
        submit("webauthn_register", attestationJson(credential), "webauthn");
      })
      .catch(report);
  }

  function passkeyLogin() {
    cancelAutofill();
    var opt = readJson("passkey_challenge");
    return navigator.credentials
      .get({ publicKey: requestOptions(opt.publicKey) })
      .then(function (credential) {
        submit("passkey_login", assertionJson(credential), "passkey");
      })
      .catch(report);
  }

  function passkeyLoginAutocompleteInit() {
    var PKC = window.PublicKeyCredential;
    if (!PKC || !PKC.isConditionalMediationAvailable || !input("passkey_challenge")) {
      return Promise.resolve();
    }
    return PKC.isConditionalMediationAvailable().then(function (available) {
      if (!available) return;
      cancelAutofill();
      autofill = new AbortController();
      var opt = readJson("passkey_challenge");
      return navigator.credentials
        .get({
          publicKey: requestOptions(opt.publicKey),
          mediation: "conditional",
          signal: autofill.signal,
        })
        .then(function (credential) {
          autofill = undefined;
          submit("passkey_login", assertionJson(credential), "passkey");
        });
    }).catch(report);
  }

  // The first of the named traits with a value (the e-mail typed on the sign-up form).
  function typedName(data) {
    var names = data.displayNameFieldNames || [data.displayNameFieldName];
    for (var i = 0; i < names.length; i++) {
      var el = names[i] && input(names[i]);
      if (el && el.value) return el.value;
    }
    return "";
  }

  function passkeyRegistration() {
    var data = readJson("passkey_create_data");
    var publicKey = Object.assign({}, data.credentialOptions.publicKey);
    var name = typedName(data);
    publicKey.user = Object.assign({}, publicKey.user, { name: name, displayName: name });
    return navigator.credentials
      .create({ publicKey: creationOptions(publicKey) })
      .then(function (credential) {
        submit("passkey_register", attestationJson(credential), "passkey");
      })
      .catch(report);
  }

  function passkeySettingsRegistration() {
    var opt = readJson("passkey_create_data");
    return navigator.credentials
      .create({ publicKey: creationOptions(opt.publicKey) })
      .then(function (credential) {
        submit("passkey_settings_register", attestationJson(credential), "passkey");
      })
      .catch(report);
  }

  var functions = {
    oryWebAuthnLogin: webAuthnLogin,
    oryWebAuthnRegistration: webAuthnRegistration,
    oryPasskeyLogin: passkeyLogin,
    oryPasskeyLoginAutocompleteInit: passkeyLoginAutocompleteInit,
    oryPasskeyRegistration: passkeyRegistration,
    oryPasskeySettingsRegistration: passkeySettingsRegistration,
  };
  Object.keys(functions).forEach(function (name) {
    window[name] = functions[name];
    window["__" + name] = functions[name];
  });
  window.__oryWebAuthnInitialized = true;
})();
`;
