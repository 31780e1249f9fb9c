# syntax=docker/dockerfile:1
# meshscope production image: `docker build -t meshscope:latest .`
#   docker run -p 127.0.0.1:3000:3000 -p 127.0.0.1:15010:15010 meshscope:latest serve      (embedded demo mesh)
#   docker run -p 127.0.0.1:3000:3000 -v ~/.kube:/kube:ro meshscope:latest serve --kubeconfig /kube/config
# In a cluster, deploy/ runs it as `serve --in-cluster --address 0.0.0.0`.
# meshscope binds loopback unless told otherwise; inside a container that would be unreachable, so the
# image sets MESHSCOPE_ADDRESS=0.0.0.0 explicitly (every interface of the container; publish the ports
# on 127.0.0.1 as above, or protect them: README "Security", --auth-token-file).
#
# `meshscope serve` (server/cli/commands/serve.ts) runs `next start` on the prebuilt .next/ and the CLI
# itself runs as an esbuild bundle of server/cli (dist/cli, scripts/build-cli.mjs), so the image carries
# production node_modules, .next/, dist/ and server/ rather than Next's `output: 'standalone'` bundle
# (whose server.js would bypass the CLI). The build's .next/BUILD_ID and dist/cli/main.mjs are newer than
# every copied source (COPY keeps mtimes), so nothing is rebuilt at run time.
ARG NODE_IMAGE=node:20-bookworm-slim

# --- 1. all dependencies (dev included: buf + protoc-gen-es generate server/gen on postinstall) ---
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
COPY scripts ./scripts
# `npm install`, not `npm ci`: the lockfile lacks platform optionals this registry does not serve.
RUN npm install && test -d server/gen

# --- 2. build the Next.js app -----------------------------------------------------------------
FROM deps AS build
COPY . .
RUN npx next build && rm -rf .next/cache && node scripts/build-cli.mjs

# --- 3. production dependencies only -----------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm install --omit=dev --ignore-scripts && npm cache clean --force

# --- 4. runtime ---------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 MESHSCOPE_ADDRESS=0.0.0.0
# jemalloc for the server (docs/perf/issue24-allocator.md): glibc keeps the native memory a connect wave
# freed mapped; jemalloc gives it back and holds less per client. Preloaded for every process of the image at
# one arch-independent path; `serve` adds its MALLOC_CONF (server/cli/allocator.ts) and says so on its start-up
# line. `-e LD_PRELOAD=` turns it off.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s "$(ls /usr/lib/*-linux-gnu/libjemalloc.so.2)" /usr/local/lib/libjemalloc.so.2
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2
RUN groupadd --gid 10001 meshscope \
 && useradd --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin meshscope
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/tsconfig.json /app/next.config.* ./
COPY --from=build /app/.next ./.next
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/dist ./dist
COPY --from=build /app/server ./server
COPY --from=build /app/proto ./proto
COPY --from=build /app/examples ./examples
RUN mkdir -p .next/cache && chown -R 10001:10001 .next/cache
USER 10001:10001
EXPOSE 3000 15010
ENTRYPOINT ["node", "bin/meshscope.mjs"]
# Every interface (MESHSCOPE_ADDRESS above) is open only when said so: a team puts sign-in in front
# (`serve --auth token|header|openid`, docs/security.md).
CMD ["serve", "--auth", "none", "--i-understand-this-is-open"]
