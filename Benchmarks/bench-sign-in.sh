# Sourced by the serving benchmarks: signs in to the `hmon serve` on 127.0.0.1:PORT as the ancestor app
# did (post the form, read the token from the redirect, not followed) as user "bench", password
# "benchmark" (the store `hmon-bench store` builds), and picks its first device.
#
#   sign_in PORT    sets $auth (the Authorization header) and $path (GET /v1.1/messages/last?count=20 of
#                   that device), and prints the answer's size
sign_in() {
    local base="http://127.0.0.1:$1" location token uid sdid
    location=$(curl -s -o /dev/null -w '%{redirect_url}' \
        --data-urlencode client_id=hmon --data-urlencode response_type=token \
        --data-urlencode redirect_uri=hmon://signed-in --data-urlencode username=bench --data-urlencode password=benchmark \
        "$base/authorize")
    token=${location##*access_token=}
    [ -n "$token" ] && [ "$token" != "$location" ] || { echo "serve-wrk: sign-in failed: $location" >&2; exit 1; }
    auth="Authorization: Bearer $token"
    uid=$(curl -s -H "$auth" "$base/v1.1/users/self" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
    sdid=$(curl -s -H "$auth" "$base/v1.1/users/$uid/devices" | grep -o '"id":"[0-9a-f]*"' | head -1 | cut -d'"' -f4)
    path="/v1.1/messages/last?count=20&sdids=$sdid"
    echo "serve-wrk: GET /v1.1/messages/last?count=20 answers $(curl -s -H "$auth" "$base$path" | grep -o '"size":[0-9]*')"
}
