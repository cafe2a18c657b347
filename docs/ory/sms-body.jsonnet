// The body of Kratos' SMS request: {"to", "body"}, as the embedded server POSTs to SMS_WEBHOOK_URL.
function(ctx) {
  to: ctx.recipient,
  body: ctx.body,
}
