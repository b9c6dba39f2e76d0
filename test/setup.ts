// The AWS SDK warns on every Node before 22; the supported runtime here is Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
