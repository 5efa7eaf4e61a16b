-- Shared by the benchmark's wrk scripts (loaded with dofile by each of them):
--   * a monotonic clock (LuaJIT FFI: wrk's Lua has none finer than os.time),
--   * fixed-rate pacing through wrk's delay() hook, when BENCH_RATE is set,
--   * a done() that prints one machine-readable "BENCH key=value ..." line.
--
-- Environment:
--   BENCH_RATE     total requests per second over all threads; unset or 0 = as fast as possible
--   BENCH_THREADS  the -t given to wrk (the rate is split evenly between threads)

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clk_id, bench_timespec *tp);
]]
local CLOCK_MONOTONIC = 1
local ts = ffi.new("bench_timespec")

function bench_now()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, ts)
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
end

-- Globals read back from each thread by done() (thread:get).
slips = 0    -- send slots that no connection was free to take (the schedule slipped)
paced = 0    -- requests that went through delay()

local rate = tonumber(os.getenv("BENCH_RATE") or "") or 0
local nthreads = tonumber(os.getenv("BENCH_THREADS") or "") or 2

if rate > 0 then
  -- wrk calls delay() before every request of a connection (after the previous
  -- response arrived) and waits that many milliseconds before sending it. Each
  -- thread hands out send slots spaced `interval` apart, whichever of its
  -- connections asks: the rate stays constant whatever the response times, as long
  -- as a connection is free when its slot comes (wrk2-style constant throughput,
  -- without wrk2's coordinated-omission correction; slipped slots are counted and
  -- the achieved rate is reported). Latency is measured by wrk from the moment the
  -- request is written, so the waiting time is not part of it.
  local interval = nthreads / rate
  local next_slot = nil
  math.randomseed(os.time())
  function delay()
    local t = bench_now()
    if next_slot == nil then
      next_slot = t
    elseif next_slot < t then
      if t - next_slot > 0.001 then
        slips = slips + 1
      end
      next_slot = t
    end
    local wait_ms = (next_slot - t) * 1000
    next_slot = next_slot + interval
    paced = paced + 1
    -- wrk takes whole milliseconds: round at random so the mean wait is exact.
    return math.floor(wait_ms + math.random())
  end
end

local bench_threads = {}
local bench_thread_count = 0

function setup(thread)
  bench_thread_count = bench_thread_count + 1
  thread:set("thread_index", bench_thread_count - 1)
  table.insert(bench_threads, thread)
end

function done(summary, latency, requests)
  local s, p = 0, 0
  for _, t in ipairs(bench_threads) do
    s = s + (tonumber(t:get("slips")) or 0)
    p = p + (tonumber(t:get("paced")) or 0)
  end
  local e = summary.errors
  local secs = summary.duration / 1e6
  io.write(string.format(
    "BENCH requests=%d duration_us=%d rps=%.1f bytes=%d mean_us=%.1f p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d " ..
    "err_connect=%d err_read=%d err_write=%d err_timeout=%d err_status=%d slips=%d paced=%d\n",
    summary.requests, summary.duration, summary.requests / secs, summary.bytes, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max,
    e.connect, e.read, e.write, e.timeout, e.status, s, p))
end
