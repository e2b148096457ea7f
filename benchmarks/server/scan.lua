-- wrk script: POST /api/v1/scan with an SMS-size text (the token comes from
-- the SCAMCHECK_TOKEN environment variable).
wrk.method = "POST"
wrk.body = '{"kind":"text","locale":"en","content":"Your parcel is on hold at the depot. ' ..
           'Pay the 1.99 EUR customs fee today at https://dhl-track.example.top/pay or it ' ..
           'goes back to the sender."}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("SCAMCHECK_TOKEN")
