#division A
# note: round 1: Di Dane beat Cy Cole on a tie, 400-400, decided by the scores before the end-of-game adjustments; a .t holds the final scores only, so tsh and NASPA read it as a draw
Ann Able 1800 2 0 0 0 2; 420 50 50 50 410; naspa NA1001
Ben Baker 1700 1 3 5 0 1; 390 360 385 50 400; naspa NA1002
Cy Cole 1600 4 2 0 5 5; 400 360 -50 380 400; naspa NA1003
Di Dane 1500 3 5 0 0 0; 400 410 50 -50 -50; off -50
Zoë Zane 0 0 4 2 3 3; 50 300 390 390 360
#division B
Kay Kim 1500 2; 400; naspa NA2001
Lee Lin 1400 1; 350
